import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 26 (relay on PostgreSQL, docs/perf/streaming-relay-diary.md round 14): PostgreSQL compresses a value over
 * ~2 KB before storing it, with pglz unless a column says otherwise. A reply's search vector is that large from
 * about 200 words, and pglz was nearly half of what writing it cost (5,000 vectors of 200 words: 274 µs a row with
 * pglz, 150 µs with lz4, 160 µs not compressed; lz4's 5 % larger than pglz's); a long reply's text and its sources
 * are compressed at every save too. New values of these columns are compressed with lz4, which every PostgreSQL
 * from 14 built with it reads and writes; older values stay as they are and are read as before. A server without
 * lz4 keeps pglz (nothing is changed then).
 */
export const fastCompression: Migration = {
  async up(db, t) {
    if (t.kind !== 'postgres') return;
    await sql`do $$ begin
        alter table message_search alter column tsv set compression lz4;
        alter table messages alter column content set compression lz4,
          alter column sources set compression lz4, alter column steps set compression lz4;
      exception when feature_not_supported or syntax_error then
        raise notice 'lz4 compression is not available: columns keep pglz';
      end $$`.execute(db);
  },
};
