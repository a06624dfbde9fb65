import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 10 (streaming speed, decision 0013; docs/perf/streaming-relay-diary.md round 4): on SQLite, writing a message
 * into the FTS5 index was most of a reply's database time, paid inside the commits of the user message and of the
 * finished reply. Now those commits only note the message in `messages_fts_pending` (a primary-key insert), and
 * indexMessages (search.repository.ts) writes the noted messages into the index in batches, off the request path: a
 * periodic task, and every search before it reads the index, so search still finds every saved message.
 *
 * Text already in the index still leaves it in the same statement that changes or deletes it: FTS5 (external
 * content) removes a row by its old text, which is gone afterwards. Edits and deletions are rare.
 *
 * Existing messages are all indexed already (the triggers of 0006), so there is nothing to carry over. PostgreSQL keeps
 * its generated tsvector column: measured, its cost per reply is small (docs/perf/streaming-relay-diary.md round 4).
 */
export const searchQueue: Migration = {
  async up(db, t) {
    if (t.kind !== 'sqlite') return;
    await sql`create table messages_fts_pending (message_id integer primary key)`.execute(db);
    for (const trigger of ['messages_fts_insert', 'messages_fts_update', 'messages_fts_delete'])
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    const indexed = sql`old.status != 'streaming' and not exists (select 1 from messages_fts_pending where message_id = old.id)`;
    await sql`create trigger messages_fts_insert after insert on messages when new.status != 'streaming' begin
      insert or ignore into messages_fts_pending(message_id) values (new.id); end`.execute(db);
    await sql`create trigger messages_fts_update after update of content, status on messages
      when old.status != 'streaming' or new.status != 'streaming' begin
      insert into messages_fts(messages_fts, rowid, content) select 'delete', old.id, old.content where ${indexed};
      insert or ignore into messages_fts_pending(message_id) select new.id where new.status != 'streaming';
      end`.execute(db);
    await sql`create trigger messages_fts_delete after delete on messages when old.status != 'streaming' begin
      insert into messages_fts(messages_fts, rowid, content) select 'delete', old.id, old.content where ${indexed};
      delete from messages_fts_pending where message_id = old.id;
      end`.execute(db);
  },
};
