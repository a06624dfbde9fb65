import type { Migration } from './migration';

export const conversations: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('conversations')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('conversations_bot_id').on('conversations').column('bot_id').execute();
    await db.schema
      .createIndex('conversations_user_updated')
      .on('conversations')
      .columns(['user_id', 'updated_at'])
      .execute();

    await db.schema
      .createTable('messages')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
      .addColumn('role', 'varchar(20)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('complete'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('messages_conversation_id').on('messages').columns(['conversation_id', 'id']).execute();
  },
};
