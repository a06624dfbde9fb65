import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 26, part 4 (decision 0013's diary, round 11): on PostgreSQL a message's search vector was a generated
 * column, so `to_tsvector` and its GIN entry (~380 µs of the database's CPU, measured) ran inside the commits
 * of the user's message and of the finished reply, before the stream could start or end. Now, as on SQLite
 * since migration 0013, those commits only note the message in `messages_search_pending` (a primary-key insert,
 * by trigger, so no writer can forget it), and indexMessages (search.repository.ts) writes the vectors of the
 * noted messages into `message_search` in batches off the reply's path: a periodic task, and every search before
 * it reads, so a search still finds every saved message. Instances claim batches with `skip locked`.
 */
export const postgresSearchQueue: Migration = {
  async up(db, t) {
    if (t.kind !== 'postgres') return;
    await sql`create table message_search (
      message_id integer primary key references messages(id) on delete cascade,
      tsv tsvector not null)`.execute(db);
    await sql`insert into message_search (message_id, tsv)
      select id, to_tsvector('english', content) from messages where status != 'streaming'`.execute(db);
    await sql`create index message_search_tsv on message_search using gin (tsv)`.execute(db);
    // Dropping the generated column drops its GIN index with it.
    await sql`alter table messages drop column tsv`.execute(db);
    await sql`create table messages_search_pending (message_id integer primary key)`.execute(db);
    await sql`create function note_message_for_search() returns trigger language plpgsql as $$
      begin
        insert into messages_search_pending (message_id) values (new.id) on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger messages_search_insert after insert on messages
      for each row when (new.status != 'streaming') execute function note_message_for_search()`.execute(db);
    await sql`create trigger messages_search_update after update of content, status on messages
      for each row when (new.status != 'streaming'
        and (old.content is distinct from new.content or old.status is distinct from new.status))
      execute function note_message_for_search()`.execute(db);
  },
};
