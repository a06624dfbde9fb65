import type { Migration } from './migration';

/**
 * API keys for the OpenAI-compatible API and read-only conversation snapshots. Both grant access by a random
 * secret, so only its SHA-256 is stored (decisions §5); revoking deletes the row, which takes effect at once.
 */
export const keysAndShares: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // null: every bot of the owner, now and later. A key for one bot goes with the bot.
      .addColumn('bot_id', 'integer', (c) => c.references('bots.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('last_used_at', t.timestamp)
      .addColumn('expires_at', t.timestamp)
      .execute();
    await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

    await db.schema
      .createTable('conversation_shares')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      // One link per conversation: sharing again replaces it.
      .addColumn('conversation_id', 'integer', (c) =>
        c.notNull().unique().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      // The conversation as it was when shared: later messages, edits and renames do not reach the link.
      .addColumn('snapshot', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp)
      .execute();
  },
};
