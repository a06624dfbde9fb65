import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Knowledge retrieval on PostgreSQL (issue 8's p95 < 50 ms at 10,000 passages): ts_rank has to read the tsvector
 * of every passage it ranks, and an OR of a question's words matches most passages once common words are in it.
 *
 * - `file_terms` holds, per ready file, how many of its passages contain each lexeme (ts_stat), so a search can
 *   find its rarest words in the scope and rank only the passages that hold them (see searchFullText). The
 *   database fills it whenever a file's status changes, so the job runner need not know about it; it also
 *   flushes the GIN index's pending list then, which every index search would otherwise read in full.
 * - The tsvector stays in the row (`STORAGE MAIN`): out of line, in TOAST, every @@ and ts_rank fetched it
 *   again from the TOAST table. Existing rows are rewritten so they move in too.
 *
 * SQLite needs neither: FTS5's bm25 already weighs rare words and reads no document to rank.
 */
export const knowledgeRanking: Migration = {
  async up(db, t) {
    if (t.kind === 'sqlite') return;
    await sql`alter table file_chunks alter column tsv set storage main`.execute(db);
    // Rewriting `text` recomputes the generated tsvector (only a change of its inputs does), stored the new way.
    await sql`update file_chunks set text = text`.execute(db);

    await db.schema
      .createTable('file_terms')
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('lexeme', 'text', (c) => c.notNull())
      .addColumn('chunks', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_terms_pkey', ['file_id', 'lexeme'])
      .execute();
    await sql`create function file_terms_count() returns trigger language plpgsql as $$
      begin
        delete from file_terms where file_id = new.id;
        if new.status = 'ready' then
          insert into file_terms (file_id, lexeme, chunks)
            select new.id, word, ndoc from ts_stat(format('select tsv from file_chunks where file_id = %s', new.id));
          begin
            perform gin_clean_pending_list('file_chunks_tsv'::regclass);
          exception when insufficient_privilege then
            null; -- Only the index's owner may flush it; autovacuum will, a little later.
          end;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger files_terms_count after update of status on files
      for each row when (new.status is distinct from old.status) execute function file_terms_count()`.execute(db);
    await sql`insert into file_terms (file_id, lexeme, chunks)
      select f.id, s.word, s.ndoc from files f,
        ts_stat(format('select tsv from file_chunks where file_id = %s', f.id)) s
      where f.status = 'ready'`.execute(db);
  },
};
