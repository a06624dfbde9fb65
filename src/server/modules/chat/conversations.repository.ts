import type { Selectable } from 'kysely';
import type { Conversation } from '@shared/contracts/chat';
import type { ConversationsTable, Executor } from '../../db/database';

export type ConversationRow = Selectable<ConversationsTable>;

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    botId: row.bot_id,
    userId: row.user_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The conversation only when it belongs to `userId`; someone else's is indistinguishable from a missing one. */
export const findOwnedConversation = (db: Executor, userId: number, conversationId: number) =>
  db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** Most recently active first. */
export const findConversationsOfBot = (db: Executor, userId: number, botId: number) =>
  db
    .selectFrom('conversations')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

export const insertConversation = (db: Executor, c: { botId: number; userId: number; title: string }, now: string) =>
  db
    .insertInto('conversations')
    .values({ bot_id: c.botId, user_id: c.userId, title: c.title, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Leaves updated_at alone: it records the last message, which orders the list, and a rename is not one. */
export const updateConversationTitle = (db: Executor, conversationId: number, title: string) =>
  db
    .updateTable('conversations')
    .set({ title })
    .where('id', '=', conversationId)
    .returningAll()
    .executeTakeFirstOrThrow();

export const touchConversation = (db: Executor, conversationId: number, now: string) =>
  db.updateTable('conversations').set({ updated_at: now }).where('id', '=', conversationId).execute();

/** Explicit rather than relying on the cascade, as in deleteBotWithConversations. */
export async function deleteConversationWithMessages(db: Executor, conversationId: number) {
  await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
  await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
}
