import type { Migration } from './migration';

/**
 * MCP servers (issue 24): a person's own servers and the ones an admin added for everyone (`shared`). Their
 * credentials (a bearer token, header values) are sealed with lib/secret-box.ts like AI connections' keys; the
 * tools each server listed last are kept with it, so a reply offers them without connecting first.
 */
export const mcpServers: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('mcp_servers')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('shared', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('transport', 'varchar(30)', (c) => c.notNull())
      // AES-256-GCM (lib/secret-box.ts); the last four characters are kept apart to tell tokens apart.
      .addColumn('bearer_token_cipher', 'text')
      .addColumn('bearer_token_last4', 'varchar(4)')
      // The header values sealed as one JSON object; their names are kept in clear to be shown.
      .addColumn('headers_cipher', 'text')
      .addColumn('header_names', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('allow_private_address', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('unknown'))
      .addColumn('error', 'text')
      .addColumn('tools', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('refreshed_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mcp_servers_user').on('mcp_servers').column('user_id').execute();
  },
};
