import { CHAT_MESSAGES, type Message } from '@shared/contracts/chat';
import type { DbScope, Executor } from '../../db/database';
import { inTransaction } from '../../db/write-atomically';
import { isoNow } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import type { ReplyBot } from '../bots/bots.repository';
import { requireUsableBot } from '../bots/sharing.service';
import type { ChatDeps } from './chat-deps';
import { requireConversation } from './conversations.service';
import { findOwnedConversation } from './conversations.repository';
import {
  countConversationFiles,
  findAttachments,
  findVersions,
  insertMessageTouching,
  toMessage,
  type ContextRow,
  type MessageRow,
} from './messages.repository';
import { isLiveReply } from '../replies/reply-lifecycle';
import {
  activateBranch,
  contextFromRecent,
  deactivateFrom,
  findBranchThrough,
  findLastMessages,
  findMessage,
  findMessagePage,
  findMessages,
} from './branches.repository';

/** Messages as the client shows them: with their attachments, and user messages with their versions. */
export async function toMessages(db: Executor, conversationId: number, rows: MessageRow[]): Promise<Message[]> {
  const [attachments, versions] = await Promise.all([
    findAttachments(db, rows),
    findVersions(db, conversationId, rows),
  ]);
  return rows.map((row) => toMessage(row, attachments, versions));
}

/** The active branch, whole or (with a limit) the page before `cursor`; see messagesQuerySchema. */
export async function listMessages(
  deps: ChatDeps,
  userId: number,
  conversationId: number,
  page: { cursor?: number; limit?: number } = {},
): Promise<Message[]> {
  const db = deps.db.kysely;
  await requireConversation(db, userId, conversationId);
  const rows =
    page.limit === undefined && page.cursor === undefined
      ? await findMessages(db, conversationId)
      : await findMessagePage(db, conversationId, page.cursor ?? null, page.limit ?? 50);
  return toMessages(db, conversationId, rows);
}

export interface NewUserMessage {
  /** Whose conversation it is (the caller's, checked before). */
  userId: number;
  content: string;
  fileIds?: number[];
  /** An edit: the version it replaces, whose place on the branch it takes. */
  replaces?: MessageRow;
  /**
   * A new message the model answers next: its memory of the conversation (this many messages, see
   * contextWindowOf) is read with the branch's last message when that one read can tell it.
   */
  contextWindow?: number;
  /** The bot's reply row is saved right after the message (one statement on PostgreSQL). */
  withReply?: boolean;
  /** Told the model's memory as soon as it is read, before anything is written (see beginReply). */
  onHistory?: (history: ContextRow[]) => void;
  /**
   * The branch's last messages as findLastMessages reads them for `contextWindow`, when they were read with the
   * conversation (findReplyConversation); read again when the last of them was a reply still being written.
   */
  recent?: ContextRow[];
}

/**
 * Saves a user message at the end of the active branch, or (an edit) in place of an earlier version, within
 * the caller's transaction `tx`. The conversation's first message is when the chat counts as started
 * (decisions §1).
 */
export async function saveUserMessage(
  scope: DbScope,
  at: string,
  bot: ReplyBot,
  conversationId: number,
  m: NewUserMessage,
): Promise<{ message: Message; history?: ContextRow[]; replyId?: number }> {
  const tx = scope.kysely;
  const ids = await requireConversationFiles(tx, conversationId, m.fileIds ?? []);
  const window = m.replaces ? 0 : (m.contextWindow ?? 0);
  const recent =
    m.recent && !isLiveReply(m.recent[0]?.status ?? '')
      ? m.recent
      : await findLastMessages(tx, conversationId, Math.max(1, window));
  const last = recent[0];
  const parentId = m.replaces ? m.replaces.parent_id : (last?.id ?? null);
  const history = m.contextWindow === undefined || m.replaces ? undefined : contextFromRecent(recent, window);
  if (history) m.onHistory?.(history);
  if (m.replaces) await deactivateFrom(tx, conversationId, m.replaces.id);
  const inserted = await insertMessageTouching(
    scope,
    { conversationId, parentId, role: 'user', content: m.content, status: 'complete', fileIds: ids },
    at,
    m.withReply ? bot.version : undefined,
  );
  // Another message took the parent's place meanwhile (PostgreSQL; see insertAtBranchEnd): nothing is saved.
  if (!inserted) throw new AppError('CONFLICT', CHAT_MESSAGES.conversationChanged);
  const { row, replyId, versions } = inserted;
  // A visitor's chat with a shared bot is theirs alone: its owner's history does not hear of it.
  if (!last && m.userId === bot.userId) await recordActivity(tx, { userId: bot.userId, type: 'chat_started', bot, at });
  const [message] = versions
    ? [toMessage(row, await findAttachments(tx, [row]), versions)]
    : await toMessages(tx, conversationId, [row]);
  return { message: message!, history, replyId };
}

/** Only files attached to this very conversation may ride on its messages; anything else is "not found". */
async function requireConversationFiles(db: Executor, conversationId: number, fileIds: number[]) {
  const ids = [...new Set(fileIds)];
  if (!ids.length) return ids;
  if ((await countConversationFiles(db, conversationId, ids)) !== ids.length) throw notFound('File');
  return ids;
}

export async function postMessage(
  deps: ChatDeps,
  userId: number,
  conversationId: number,
  content: string,
): Promise<Message> {
  const conversation = await requireConversation(deps.db.kysely, userId, conversationId);
  const bot = await requireUsableBot(deps.db.kysely, userId, conversation.bot_id);
  const at = isoNow(deps.clock);
  const saved = await inTransaction(deps.db, (scope) =>
    saveUserMessage(scope, at, bot, conversationId, { userId, content }),
  );
  return saved.message;
}

/** The caller's message and its conversation; someone else's is a 404 like a missing one. */
export async function requireMessage(db: Executor, userId: number, messageId: number) {
  const message = await findMessage(db, messageId);
  if (!message) throw notFound('Message');
  const conversation = await findOwnedConversation(db, userId, message.conversation_id);
  if (!conversation) throw notFound('Message');
  return { message, conversation };
}

/**
 * The version switcher: makes the branch through `messageId` (its earlier turns, then its most recent
 * replies) the conversation's active branch, and answers it (its newest `limit` messages when given: a long
 * conversation's switcher need not fetch it all). Refused while a reply is being written.
 */
export async function activateMessage(
  deps: ChatDeps,
  userId: number,
  messageId: number,
  limit?: number,
): Promise<Message[]> {
  const db = deps.db.kysely;
  const { conversation } = await requireMessage(db, userId, messageId);
  const claim = await deps.replies.claim(conversation.id);
  if (!claim) throw new AppError('CONFLICT', CHAT_MESSAGES.replyRunning);
  try {
    await db
      .transaction()
      .execute(async (tx) => activateBranch(tx, conversation.id, await findBranchThrough(tx, messageId)));
  } finally {
    claim.release();
  }
  const rows =
    limit === undefined
      ? await findMessages(db, conversation.id)
      : await findMessagePage(db, conversation.id, null, limit);
  return toMessages(db, conversation.id, rows);
}

/** The conversation an edit of `messageId` continues, checked to be the caller's and a user message. */
export async function conversationOfEdit(deps: ChatDeps, userId: number, messageId: number) {
  const { message, conversation } = await requireMessage(deps.db.kysely, userId, messageId);
  if (message.role !== 'user') throw new AppError('BAD_REQUEST', CHAT_MESSAGES.onlyUserMessagesEdit);
  if (!message.active) throw new AppError('CONFLICT', CHAT_MESSAGES.editInactive);
  return conversation.id;
}
