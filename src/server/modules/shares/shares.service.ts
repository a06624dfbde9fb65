import type { Source, Support } from '@shared/contracts/chat';
import {
  SHARE_MESSAGES,
  type ShareBody,
  type ShareLink,
  type ShareStatus,
  type Snapshot,
} from '@shared/contracts/shares';
import { sharePath } from '@shared/chat/share-path';
import type { Db, Executor } from '../../db/database';
import { fromJson } from '../../db/json';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { isExpired, requireFutureExpiry } from '../../lib/expiry';
import { newToken, hashToken } from '../../lib/tokens';
import { requireUsableBot } from '../bots/sharing.service';
import {
  deleteExpiredShares,
  deleteShareOfConversation,
  findActiveBranch,
  findOwnedConversation,
  findShareOfConversation,
  findSnapshotByHash,
  replaceShare,
} from './shares.repository';

export interface SharesDeps {
  db: Db;
  clock: Clock;
}

/** Replies still being written, or that failed, are not part of what the user meant to show. */
const SHOWN_STATUSES = new Set(['complete', 'stopped', 'interrupted']);

async function requireConversation(db: Executor, userId: number, conversationId: number) {
  const row = await findOwnedConversation(db, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return row;
}

/** The conversation as visitors will see it: the active branch now, without ids or file references. */
async function takeSnapshot(db: Executor, userId: number, conversationId: number, at: string): Promise<Snapshot> {
  const conversation = await requireConversation(db, userId, conversationId);
  // A visitor shares their own conversation with a shared bot as long as they may still use it.
  const bot = await requireUsableBot(db, userId, conversation.bot_id);
  const messages = (await findActiveBranch(db, conversationId))
    .filter((m) => m.content && SHOWN_STATUSES.has(m.status))
    .map((m) => ({
      role: m.role,
      content: m.content,
      sources: ((m.sources == null ? [] : fromJson(m.sources)) as Source[]).map(({ fileId: _, ...visible }) => visible),
      // The check as it stood when shared (decision 0044); a reply checked later shows it in the next snapshot.
      ...(m.support == null ? {} : { support: fromJson(m.support) as Support }),
      createdAt: m.created_at,
    }));
  if (!messages.length) throw new AppError('CONFLICT', SHARE_MESSAGES.nothingToShare);
  return { botName: bot.name, botIcon: bot.icon, title: conversation.title, messages, sharedAt: at, expiresAt: null };
}

/** A new link to a snapshot of the conversation as it is now; an earlier link of it stops working. */
export async function shareConversation(
  deps: SharesDeps,
  userId: number,
  conversationId: number,
  body: ShareBody,
): Promise<ShareLink> {
  const expiresAt = requireFutureExpiry(deps.clock, body.expiresAt, SHARE_MESSAGES.expiresAtPast);
  const at = isoNow(deps.clock);
  const { token, hash } = newToken();
  await deps.db.kysely.transaction().execute(async (tx) => {
    const snapshot = { ...(await takeSnapshot(tx, userId, conversationId, at)), expiresAt };
    await replaceShare(tx, { conversationId, userId, tokenHash: hash, snapshot, expiresAt }, at);
  });
  return { token, url: sharePath(token), sharedAt: at, expiresAt };
}

export async function shareStatus(deps: SharesDeps, userId: number, conversationId: number): Promise<ShareStatus> {
  const db = deps.db.kysely;
  await requireConversation(db, userId, conversationId);
  const row = await findShareOfConversation(db, conversationId);
  return {
    share:
      row && !isExpired(deps.clock, row.expires_at) ? { sharedAt: row.created_at, expiresAt: row.expires_at } : null,
  };
}

export async function revokeShare(deps: SharesDeps, userId: number, conversationId: number) {
  const db = deps.db.kysely;
  await requireConversation(db, userId, conversationId);
  const result = await deleteShareOfConversation(db, conversationId);
  if (!result.numDeletedRows) throw new AppError('NOT_FOUND', SHARE_MESSAGES.notFound);
  return { message: SHARE_MESSAGES.revoked };
}

/** Anyone with the token; a revoked, expired or unknown link is the same 404. */
export async function openSnapshot(deps: SharesDeps, token: string): Promise<Snapshot> {
  const found = await findSnapshotByHash(deps.db.kysely, hashToken(token));
  if (!found || isExpired(deps.clock, found.expiresAt)) throw new AppError('NOT_FOUND', SHARE_MESSAGES.notFound);
  return found.snapshot;
}

/** An expired snapshot already answers 404; dropping it also stops keeping a copy of the conversation around. */
export const purgeExpiredShares = (deps: SharesDeps) => deleteExpiredShares(deps.db.kysely, isoNow(deps.clock));
