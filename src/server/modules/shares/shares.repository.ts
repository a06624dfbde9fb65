import type { Snapshot } from '@shared/contracts/shares';
import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

/** The caller's conversation, what a snapshot shows of it; undefined when it is missing or someone else's. */
export const findOwnedConversation = (db: Executor, userId: number, conversationId: number) =>
  db
    .selectFrom('conversations')
    .select(['id', 'bot_id', 'title'])
    .where('id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** The conversation's active branch in the order it was written, with what a snapshot shows of each message. */
export const findActiveBranch = (db: Executor, conversationId: number) =>
  db
    .selectFrom('messages')
    .select(['role', 'content', 'status', 'sources', 'support', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .where('active', '=', true)
    .orderBy('id', 'asc')
    .execute();

export interface NewShare {
  conversationId: number;
  userId: number;
  tokenHash: string;
  snapshot: Snapshot;
  expiresAt: string | null;
}

/** One link per conversation: a new one replaces the old, whose link stops working. */
export async function replaceShare(db: Executor, s: NewShare, now: string) {
  await deleteShareOfConversation(db, s.conversationId);
  await db
    .insertInto('conversation_shares')
    .values({
      conversation_id: s.conversationId,
      user_id: s.userId,
      token_hash: s.tokenHash,
      snapshot: toJson(s.snapshot),
      created_at: now,
      expires_at: s.expiresAt,
    })
    .execute();
}

export const deleteShareOfConversation = (db: Executor, conversationId: number) =>
  db.deleteFrom('conversation_shares').where('conversation_id', '=', conversationId).executeTakeFirst();

export const findShareOfConversation = (db: Executor, conversationId: number) =>
  db
    .selectFrom('conversation_shares')
    .select(['created_at', 'expires_at'])
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();

export async function findSnapshotByHash(db: Executor, tokenHash: string) {
  const row = await db
    .selectFrom('conversation_shares')
    .select(['snapshot', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { snapshot: fromJson(row.snapshot) as Snapshot, expiresAt: row.expires_at };
}

export async function deleteExpiredShares(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('conversation_shares').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
