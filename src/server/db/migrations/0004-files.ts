import { sql } from 'kysely';
import type { Migration } from './migration';

/** Knowledge files and conversation attachments, their indexed chunks, and the bytes waiting to be removed. */
export const files: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('files')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('bot_id', 'integer', (c) => c.references('bots.id').onDelete('cascade'))
      .addColumn('conversation_id', 'integer', (c) => c.references('conversations.id').onDelete('cascade'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('media_type', 'varchar(100)', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('storage_key', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      // A job runner holds a file until then; a crashed runner's file is taken up again once it has passed.
      .addColumn('lease_until', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_bot_id').on('files').column('bot_id').execute();
    await db.schema.createIndex('files_conversation_id').on('files').column('conversation_id').execute();
    await db.schema.createIndex('files_user_id').on('files').column('user_id').execute();
    await db.schema.createIndex('files_status').on('files').columns(['status', 'id']).execute();

    await db.schema
      .createTable('file_chunks')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('ord', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('page', 'integer')
      .addColumn('section', 'text')
      .addColumn('embedding', t.binary)
      .execute();
    await db.schema.createIndex('file_chunks_file_ord').on('file_chunks').columns(['file_id', 'ord']).execute();

    // Filled by a trigger whenever a file row goes, however it goes (its bot, conversation or account deleted
    // through a cascade); the job runner removes the bytes and the row. Storage cannot join a transaction.
    await db.schema
      .createTable('file_blob_deletions')
      .addColumn('storage_key', 'varchar(200)', (c) => c.primaryKey())
      .execute();

    if (t.kind === 'sqlite') {
      // External-content FTS5: the text is stored once, in file_chunks; triggers keep the index in step.
      await sql`create virtual table file_chunks_fts using fts5(text, section, content='file_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`create trigger file_chunks_fts_insert after insert on file_chunks begin
        insert into file_chunks_fts(rowid, text, section) values (new.id, new.text, new.section); end`.execute(db);
      await sql`create trigger file_chunks_fts_delete after delete on file_chunks begin
        insert into file_chunks_fts(file_chunks_fts, rowid, text, section) values ('delete', old.id, old.text, old.section); end`.execute(
        db,
      );
      await sql`create trigger files_blob_deletion after delete on files begin
        insert or ignore into file_blob_deletions(storage_key) values (old.storage_key); end`.execute(db);
    } else {
      await sql`alter table file_chunks add column tsv tsvector generated always as
        (to_tsvector('english', coalesce(section, '') || ' ' || text)) stored`.execute(db);
      await sql`create index file_chunks_tsv on file_chunks using gin (tsv)`.execute(db);
      await sql`create function file_blob_deletion() returns trigger language plpgsql as $$
        begin
          insert into file_blob_deletions(storage_key) values (old.storage_key) on conflict do nothing;
          return old;
        end $$`.execute(db);
      await sql`create trigger files_blob_deletion after delete on files
        for each row execute function file_blob_deletion()`.execute(db);
    }
  },
};
