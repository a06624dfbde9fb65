import type { Migration } from './migration';

export const bots: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('bots')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('purpose', 'varchar(30)', (c) => c.notNull())
      .addColumn('icon', 'varchar(30)', (c) => c.notNull())
      .addColumn('active', t.boolean, (c) => c.notNull().defaultTo(t.true))
      .addColumn('capabilities', t.json, (c) => c.notNull())
      .addColumn('config', t.json, (c) => c.notNull())
      .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_used', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('bots_user_id').on('bots').column('user_id').execute();

    // bot_id has no foreign key: a deleted bot's history stays readable, named by bot_name.
    await db.schema
      .createTable('activities')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'varchar(30)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('bot_id', 'integer')
      .addColumn('bot_name', 'varchar(100)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('activities_user_created')
      .on('activities')
      .columns(['user_id', 'created_at'])
      .execute();
  },
};
