import type { Selectable } from 'kysely';
import type { Message, MessageRole, MessageStatus } from '@shared/contracts/chat';
import type { Executor, MessagesTable } from '../../db/database';
import { toStorableText } from '../../lib/storable-text';

export type MessageRow = Selectable<MessagesTable>;

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
  };
}

export interface NewMessage {
  conversationId: number;
  role: MessageRole;
  content: string;
  status: MessageStatus;
}

export const insertMessage = (db: Executor, m: NewMessage, now: string) =>
  db
    .insertInto('messages')
    .values({
      conversation_id: m.conversationId,
      role: m.role,
      content: toStorableText(m.content),
      status: m.status,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** In the order they were written; ids order messages saved within the same instant. */
export const findMessages = (db: Executor, conversationId: number) =>
  db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId).orderBy('id', 'asc').execute();

export const findLastMessage = (db: Executor, conversationId: number, role?: MessageRole) => {
  let query = db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId);
  if (role) query = query.where('role', '=', role);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
};

/**
 * The last `limit` messages before `beforeId`, oldest first, as the model's memory of the conversation.
 * Failed replies are left out: the user was told they failed, so they are not part of the exchange.
 */
export async function findContextMessages(db: Executor, conversationId: number, beforeId: number, limit: number) {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('id', '<', beforeId)
    .where('status', '!=', 'failed')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The replies written after a user message, which a regenerated reply replaces. */
export const deleteRepliesAfter = (db: Executor, conversationId: number, messageId: number) =>
  db
    .deleteFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('role', '=', 'assistant')
    .where('id', '>', messageId)
    .execute();
