import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 9: conversations people can live with.
 * - `conversations.title_source`: 'default' | 'auto' | 'user', so an automatic title never replaces a user's.
 * - Messages form a tree: `parent_id` is the message before it on its branch (null for the first), and
 *   `active` marks the branch the conversation shows and the model sees. Along a branch ids only grow, so
 *   the active branch is simply the active messages in id order.
 * - `users.preferences`: pinned bots and the dark-mode choice, which follow the user to other devices.
 * - Full-text search over titles and finished messages: FTS5 with external content on SQLite (triggers keep
 *   it in step, also through cascades), generated `tsvector` columns with GIN indexes on PostgreSQL. A reply
 *   is indexed once it stops streaming, so its per-second checkpoints do not churn the index.
 */
export const conversationsSearch: Migration = {
  async up(db, t) {
    await db.schema
      .alterTable('conversations')
      .addColumn('title_source', 'varchar(10)', (c) => c.notNull().defaultTo('default'))
      .execute();
    await db.schema
      .alterTable('messages')
      .addColumn('parent_id', 'integer', (c) => c.references('messages.id').onDelete('set null'))
      .execute();
    await db.schema
      .alterTable('messages')
      .addColumn('active', t.boolean, (c) => c.notNull().defaultTo(t.true))
      .execute();
    await db.schema.alterTable('users').addColumn('preferences', t.json).execute();
    // Existing conversations are single branches: each message follows the one before it.
    await sql`update messages set parent_id = (select max(p.id) from messages p
      where p.conversation_id = messages.conversation_id and p.id < messages.id)`.execute(db);
    await db.schema
      .createIndex('messages_conversation_active')
      .on('messages')
      .columns(['conversation_id', 'active', 'id'])
      .execute();
    await db.schema.createIndex('messages_parent_id').on('messages').column('parent_id').execute();

    if (t.kind === 'sqlite') {
      await sql`create virtual table messages_fts using fts5(content, content='messages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`insert into messages_fts(rowid, content) select id, content from messages where status != 'streaming'`.execute(
        db,
      );
      await sql`create trigger messages_fts_insert after insert on messages when new.status != 'streaming' begin
        insert into messages_fts(rowid, content) values (new.id, new.content); end`.execute(db);
      await sql`create trigger messages_fts_delete after delete on messages when old.status != 'streaming' begin
        insert into messages_fts(messages_fts, rowid, content) values ('delete', old.id, old.content); end`.execute(db);
      // One trigger, so the old text always leaves the index before the new text enters it.
      await sql`create trigger messages_fts_update after update of content, status on messages
        when old.status != 'streaming' or new.status != 'streaming' begin
        insert into messages_fts(messages_fts, rowid, content)
          select 'delete', old.id, old.content where old.status != 'streaming';
        insert into messages_fts(rowid, content) select new.id, new.content where new.status != 'streaming';
        end`.execute(db);

      await sql`create virtual table conversations_fts using fts5(title, content='conversations', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`insert into conversations_fts(rowid, title) select id, title from conversations`.execute(db);
      await sql`create trigger conversations_fts_insert after insert on conversations begin
        insert into conversations_fts(rowid, title) values (new.id, new.title); end`.execute(db);
      await sql`create trigger conversations_fts_delete after delete on conversations begin
        insert into conversations_fts(conversations_fts, rowid, title) values ('delete', old.id, old.title); end`.execute(
        db,
      );
      await sql`create trigger conversations_fts_update after update of title on conversations begin
        insert into conversations_fts(conversations_fts, rowid, title) values ('delete', old.id, old.title);
        insert into conversations_fts(rowid, title) values (new.id, new.title); end`.execute(db);
    } else {
      await sql`alter table messages add column tsv tsvector generated always as
        (case when status = 'streaming' then null else to_tsvector('english', content) end) stored`.execute(db);
      await sql`create index messages_tsv on messages using gin (tsv)`.execute(db);
      await sql`alter table conversations add column tsv tsvector generated always as
        (to_tsvector('english', title)) stored`.execute(db);
      await sql`create index conversations_tsv on conversations using gin (tsv)`.execute(db);
    }
  },
};
