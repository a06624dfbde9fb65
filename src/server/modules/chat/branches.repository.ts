import { sql } from 'kysely';
import type { MessageRole } from '@shared/contracts/chat';
import type { Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';
import { isLiveReply, LIVE_REPLY_STATES } from '../replies/reply-lifecycle';
import { CONTEXT_COLUMNS, MESSAGE_COLUMNS, type ContextRow } from './messages.repository';

// A conversation's messages form a tree (edits and regenerations branch it); one path through it is active: what
// the user sees and what the model remembers.

const activeBranchRows = (db: Executor, conversationId: number) =>
  db.selectFrom('messages').where('conversation_id', '=', conversationId).where('active', '=', true);

const activeBranch = (db: Executor, conversationId: number) =>
  activeBranchRows(db, conversationId).select(MESSAGE_COLUMNS);

/** The active branch in the order it was written; ids order messages saved within the same instant. */
export const findMessages = (db: Executor, conversationId: number) =>
  activeBranch(db, conversationId).orderBy('id', 'asc').execute();

/** The last `limit` messages of the active branch before message `beforeId` (none: the end), oldest first. */
export async function findMessagePage(db: Executor, conversationId: number, beforeId: number | null, limit: number) {
  let query = activeBranch(db, conversationId);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  return (await query.orderBy('id', 'desc').limit(limit).execute()).reverse();
}

export const findMessage = (db: Executor, id: number) =>
  db.selectFrom('messages').select(MESSAGE_COLUMNS).where('id', '=', id).executeTakeFirst();

/** The active branch's last `limit` messages, newest first, as the model's memory reads them. */
const lastMessages = preparedQuery((db, v: { conversationId: number; limit: number }) =>
  activeBranchRows(db, v.conversationId).select(CONTEXT_COLUMNS).orderBy('id', 'desc').limit(v.limit),
);

export const findLastMessages = (db: Executor, conversationId: number, limit: number) =>
  lastMessages(db, { conversationId, limit });

/** The active branch's last message (of `role`), which the next message follows. */
export const findLastMessage = (db: Executor, conversationId: number, role?: MessageRole) => {
  let query = activeBranch(db, conversationId);
  if (role) query = query.where('role', '=', role);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
};

const inContext = (row: ContextRow) => row.status !== 'failed' && !isLiveReply(row.status);

/**
 * The last `limit` messages before `beforeId`, oldest first, as the model's memory of the conversation.
 * Failed replies are left out: the user was told they failed, so they are not part of the exchange.
 */
export async function findContextMessages(db: Executor, conversationId: number, beforeId: number, limit: number) {
  if (limit <= 0) return [];
  const rows = await activeBranchRows(db, conversationId)
    .select(CONTEXT_COLUMNS)
    .where('id', '<', beforeId)
    .where('status', 'not in', ['failed', ...LIVE_REPLY_STATES])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/**
 * What findContextMessages would answer for a message after `recent` (findLastMessages with the same `limit`),
 * when `recent` tells it: it held the whole branch, or none of it was left out. Undefined otherwise.
 */
export function contextFromRecent(recent: ContextRow[], limit: number): ContextRow[] | undefined {
  if (limit <= 0) return [];
  const kept = recent.filter(inContext);
  return recent.length < limit || kept.length === recent.length ? kept.reverse() : undefined;
}

/** Cuts the active branch at `messageId`: it and what follows it leave the branch (they stay, as a version). */
export const deactivateFrom = (db: Executor, conversationId: number, messageId: number) =>
  db
    .updateTable('messages')
    .set({ active: false })
    .where('conversation_id', '=', conversationId)
    .where('active', '=', true)
    .where('id', '>=', messageId)
    .execute();

/**
 * The branch through `messageId`: its ancestors up to the first message, itself, then its most recent
 * descendants down to a last message.
 */
export async function findBranchThrough(db: Executor, messageId: number): Promise<number[]> {
  const id = sql`cast(${messageId} as integer)`;
  const up = await sql<{ id: number }>`with recursive up(id, parent_id) as (
      select id, parent_id from messages where id = ${id}
      union all select m.id, m.parent_id from messages m join up on m.id = up.parent_id)
    select id from up`.execute(db);
  const down = await sql<{ id: number | null }>`with recursive down(id) as (
      select ${id}
      union all select (select max(c.id) from messages c where c.parent_id = down.id) from down where down.id is not null)
    select id from down where id is not null`.execute(db);
  return [...new Set([...up.rows, ...down.rows].map((r) => Number(r.id)))];
}

/** Makes `ids` the conversation's active branch. */
export async function activateBranch(db: Executor, conversationId: number, ids: number[]) {
  await db.updateTable('messages').set({ active: false }).where('conversation_id', '=', conversationId).execute();
  await db
    .updateTable('messages')
    .set({ active: true })
    .where('conversation_id', '=', conversationId)
    .where('id', 'in', ids)
    .execute();
}
