import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 26 (relay on PostgreSQL, docs/perf/streaming-relay-diary.md round 12): the sweeper's index of replies by
 * state and last checkpoint held every message, so each message saved and each reply ended added an entry to it,
 * and, as it held `updated_at`, every checkpoint of a reply's text (once a second) wrote a new entry into each of
 * the table's indexes. It now holds only the replies being written (`streaming`, `awaiting_approval`, the only
 * ones the sweeper looks for, a few hundred at most, whose checkpoint times it reads from the rows) by id, which
 * never changes: a question and an ended reply no longer write to it, and on PostgreSQL a checkpoint changes no
 * indexed column, so it can update the row in place (a HOT update) without touching any index. Queries that use
 * it name the states as literals (replies.repository.ts), so the planner can match them.
 */
export const liveRepliesIndex: Migration = {
  async up(db) {
    await db.schema.dropIndex('messages_status_updated').execute();
    await sql`create index messages_live on messages (id)
      where status in ('streaming', 'awaiting_approval')`.execute(db);
  },
};
