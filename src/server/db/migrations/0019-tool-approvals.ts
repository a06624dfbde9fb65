import type { Migration } from './migration';

/**
 * Tool calls that asked the person chatting (issue 24, decision 0038): one row per call that waited, its
 * decision (null while it waits; `approved`, `denied` or `timed_out`) written once, guarded by `decision is null`,
 * so whichever instance gets there first decides and every other answer is told it came too late. `always`: the
 * person's answer stands for that server's tool for the rest of the conversation. Deleted with the conversation.
 */
export const toolApprovals: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('tool_approvals')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
      .addColumn('call_id', 'varchar(200)', (c) => c.notNull())
      // The MCP server's name as its owner named it, and the tool's: what "always" is remembered for.
      .addColumn('server', 'varchar(200)', (c) => c.notNull())
      .addColumn('tool', 'varchar(200)', (c) => c.notNull())
      .addColumn('decision', 'varchar(20)')
      .addColumn('always', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('decided_at', t.timestamp)
      .addUniqueConstraint('tool_approvals_call', ['conversation_id', 'call_id'])
      .execute();
    await db.schema
      .createIndex('tool_approvals_always')
      .on('tool_approvals')
      .columns(['conversation_id', 'server', 'tool'])
      .execute();
  },
};
