import type { Migration } from './migration';

/**
 * The admin console's storage (issue 23): AI connections with their keys encrypted at rest, instance settings
 * (registration mode, default models per task, default daily limits), invitations, disabled accounts and
 * per-user limits, which model wrote each reply, and usage rolled up per user, bot, model and day so daily
 * totals and limit checks read a handful of rows however many replies there were.
 */
export const modelsAndPeople: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('ai_connections')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('kind', 'varchar(30)', (c) => c.notNull())
      .addColumn('base_url', 'varchar(2000)')
      // AES-256-GCM of the key (lib/secret-box.ts); the last four characters are kept apart to tell keys apart.
      .addColumn('api_key_cipher', 'text')
      .addColumn('api_key_last4', 'varchar(4)')
      .addColumn('allow_private_address', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('enabled_models', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('app_settings')
      .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('value', t.json, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema.alterTable('users').addColumn('disabled_at', t.timestamp).execute();
    // null: the role's default limit applies (app_settings 'defaultLimits').
    await db.schema.alterTable('users').addColumn('daily_token_limit', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('daily_reply_limit', 'integer').execute();

    await db.schema
      .createTable('invitations')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(255)')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('used_at', t.timestamp)
      .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();

    // The model that wrote a reply, as `connectionId/model`, and its label at the time.
    await db.schema.alterTable('messages').addColumn('model', 'varchar(300)').execute();

    await db.schema
      .createTable('usage_daily')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // 0 when the use belongs to no bot; no foreign key, so a deleted bot's spending stays in the totals.
      .addColumn('bot_id', 'integer', (c) => c.notNull())
      .addColumn('model', 'varchar(300)', (c) => c.notNull())
      .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      // Replies whose provider reported no usage, so their tokens were estimated from the text.
      .addColumn('estimated_replies', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('usage_daily_pk', ['user_id', 'day', 'bot_id', 'model'])
      .execute();
    await db.schema.createIndex('usage_daily_day').on('usage_daily').columns(['day', 'user_id']).execute();
  },
};
