import type { Executor } from '../../db/database';

export type ToolDecision = 'approved' | 'denied' | 'timed_out';

/** A call starts waiting for the person's answer. */
export const insertWaitingCall = (
  db: Executor,
  v: { conversationId: number; callId: string; server: string; tool: string; now: string },
) =>
  db
    .insertInto('tool_approvals')
    .values({ conversation_id: v.conversationId, call_id: v.callId, server: v.server, tool: v.tool, created_at: v.now })
    .execute();

/**
 * Records the call's decision unless one was recorded already (whoever comes first: the person, the timeout, a
 * stop); true when this one was.
 */
export async function decideCall(
  db: Executor,
  v: { conversationId: number; callId: string; decision: ToolDecision; always?: boolean; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('tool_approvals')
    .set({ decision: v.decision, always: v.always ?? false, decided_at: v.now })
    .where('conversation_id', '=', v.conversationId)
    .where('call_id', '=', v.callId)
    .where('decision', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The call's row: undefined when no call of that id ever waited in the conversation; `decision` null while it waits. */
export const findCall = (db: Executor, conversationId: number, callId: string) =>
  db
    .selectFrom('tool_approvals')
    .select(['decision', 'server', 'tool'])
    .where('conversation_id', '=', conversationId)
    .where('call_id', '=', callId)
    .executeTakeFirst();

/** The answer the person gave "always for this chat" to this server's tool, the latest one. */
export async function rememberedDecision(db: Executor, conversationId: number, server: string, tool: string) {
  const row = await db
    .selectFrom('tool_approvals')
    .select('decision')
    .where('conversation_id', '=', conversationId)
    .where('server', '=', server)
    .where('tool', '=', tool)
    .where('always', '=', true)
    .where('decision', 'in', ['approved', 'denied'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (row?.decision ?? undefined) as 'approved' | 'denied' | undefined;
}
