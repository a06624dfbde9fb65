import type { FastifyBaseLogger } from 'fastify';
import {
  CHAT_MESSAGES,
  conversationTitle,
  type ChatStreamEvent,
  type Conversation,
  type ConversationPage,
  type ConversationSearchResult,
  type ConversationSummary,
  type CreateConversationBody,
  type Message,
  type MessageStatus,
} from '@shared/contracts/chat';
import { composePrompt, contextWindowOf } from '../../ai/compose-prompt';
import type { Ai } from '../../ai/providers';
import { conversationTitleFor } from '../../ai/tasks/conversation-title';
import {
  CHAT_ERRORS,
  ChatReplyError,
  runChatReply,
  type ChatTimeouts,
  type ReplyUsage,
} from '../../ai/tasks/chat-reply';
import type { DatabaseKind, Db, Executor } from '../../db/database';
import { inSharedTransaction } from '../../db/shared-transaction';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { batchPerTurn } from '../../lib/turn-batch';
import { recordActivity } from '../activities/activities.service';
import { recordBotUse } from '../bots/bot-use';
import type { ReplyBot } from '../bots/bots.repository';
import { requireUsableBot } from '../bots/sharing.service';
import {
  deleteConversationWithMessages,
  findConversationPage,
  findConversationsOfBot,
  findConversationSummaries,
  findEmptyLatestConversation,
  findOwnedConversation,
  findOwnedConversationSummary,
  findReplyOwners,
  insertConversation,
  setAutomaticTitle,
  toConversation,
  toConversationSummary,
  updateConversationTitle,
  type ConversationCursor,
  type ConversationRow,
} from './conversations.repository';
import {
  activateBranch,
  checkpointReplies,
  countConversationFiles,
  deactivateFrom,
  deleteMessage,
  deleteRepliesTo,
  fileIdsOf,
  findAttachments,
  findBranchThrough,
  contextFromRecent,
  findContextMessages,
  findLastMessage,
  findLastMessages,
  findMessage,
  findMessagePage,
  findMessages,
  findVersions,
  finishReplies,
  insertMessage,
  insertMessageTouching,
  newReply,
  markStaleRepliesInterrupted,
  toMessage,
  type FinishedReply,
  type ContextRow,
  type MessageRow,
} from './messages.repository';
import {
  askWithContextTools,
  newReplyContext,
  offlineReplyWithSources,
  type ReplyContext,
  type ReplyContextInput,
  type ReplyContextProvider,
} from '../replies/reply-context';
import { findReplyConversation } from './reply-conversation';
import type { ReplyEvents } from '../replies/reply-events';
import type { ReplyClaim, ReplyRegistry } from '../replies/reply-registry';
import { findMessageTexts, findSearchHits, highlight, indexMessages, searchTermsOf } from './search.repository';

export interface ChatDeps {
  db: Db;
  clock: Clock;
  ai: Ai;
  replies: ReplyRegistry;
  /** The events of running replies, for clients that reconnect. */
  replyEvents: ReplyEvents;
  timeouts: ChatTimeouts;
  /** What other domains add to a reply (knowledge passages, web tools, images), in order. */
  contextProviders?: ReplyContextProvider[];
  /** Work that outlives its reply (naming the conversation); the app waits for it when it closes. */
  background?: Set<Promise<unknown>>;
}

/** Replies log through the request's logger, so their lines carry its request id. */
export type ReplyDeps = ChatDeps & { log: FastifyBaseLogger };

/** The caller's conversation, or 404 whether it is missing or someone else's. */
async function requireConversation(db: Executor, userId: number, conversationId: number): Promise<ConversationRow> {
  const row = await findOwnedConversation(db, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return row;
}

/**
 * The bot's latest conversation while it has no message yet, else a new one (decisions §1: opening a chat
 * no longer piles up empty conversations). `created` tells the route which it was. A title the client gives
 * (other than the default one) is the user's.
 */
export async function openConversation(
  deps: ChatDeps,
  userId: number,
  body: CreateConversationBody,
): Promise<{ conversation: Conversation; created: boolean }> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const bot = await requireUsableBot(tx, userId, body.botId);
    if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
    const defaultTitle = conversationTitle(bot.name);
    const named = body.title && body.title !== defaultTitle ? body.title : null;
    const empty = await findEmptyLatestConversation(tx, userId, bot.id);
    if (empty) {
      const row = named ? await updateConversationTitle(tx, empty.id, named, 'user') : empty;
      return { conversation: toConversation(row), created: false };
    }
    const row = await insertConversation(
      tx,
      { botId: bot.id, userId, title: named ?? defaultTitle, titleSource: named ? 'user' : 'default' },
      at,
    );
    return { conversation: toConversation(row), created: true };
  });
}

const encodeCursor = (c: ConversationCursor) => Buffer.from(JSON.stringify([c.updatedAt, c.id])).toString('base64url');

function decodeCursor(cursor: string): ConversationCursor {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof updatedAt === 'string' && Number.isSafeInteger(id)) return { updatedAt, id: id as number };
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('BAD_REQUEST', CHAT_MESSAGES.cursorInvalid);
}

/** The History list: the caller's conversations with a message, across bots, most recently active first. */
export async function listConversationPage(
  deps: ChatDeps,
  userId: number,
  query: { cursor?: string; limit: number },
): Promise<ConversationPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await findConversationPage(deps.db.kysely, userId, cursor, query.limit + 1);
  const items = rows.slice(0, query.limit).map(toConversationSummary);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > query.limit && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
  };
}

/** Matching messages looked at per conversation asked for: enough that a few busy conversations do not crowd out the rest. */
const HITS_PER_RESULT = 10;

/**
 * Full-text search of the caller's conversation titles and messages (active branches), one result per
 * conversation, most recently active first, with the newest matching message when a message matched.
 */
export async function searchConversations(
  deps: ChatDeps,
  userId: number,
  query: { q: string; limit: number },
): Promise<{ results: ConversationSearchResult[] }> {
  const terms = searchTermsOf(query.q);
  if (!terms.length) return { results: [] };
  // Saved messages wait for the indexer (migration 0013); a search indexes them first, so it misses none.
  await indexMessages(deps.db);
  const db = deps.db.kysely;
  const hits = await findSearchHits(db, deps.db.kind, userId, terms, query.limit * HITS_PER_RESULT);
  const messageOf = new Map<number, number>();
  for (const hit of hits.messages)
    if (!messageOf.has(hit.conversationId)) messageOf.set(hit.conversationId, hit.messageId);
  const ids = [...new Set([...messageOf.keys(), ...hits.titles])];
  const conversations = (await findConversationSummaries(db, userId, ids))
    .map(toConversationSummary)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
    .slice(0, query.limit);
  const texts = await findMessageTexts(
    db,
    conversations.flatMap((c) => messageOf.get(c.id) ?? []),
  );
  return {
    results: conversations.map((conversation) => {
      const messageId = messageOf.get(conversation.id) ?? null;
      const text = messageId === null ? undefined : texts.get(messageId);
      const snippet = text === undefined ? highlight(conversation.title, terms, true) : highlight(text, terms);
      return { conversation, messageId: text === undefined ? null : messageId, snippet };
    }),
  };
}

export async function listConversations(deps: ChatDeps, userId: number, botId: number): Promise<Conversation[]> {
  await requireUsableBot(deps.db.kysely, userId, botId);
  return (await findConversationsOfBot(deps.db.kysely, userId, botId)).map(toConversation);
}

/** With its bot's name and icon, which stay readable once the bot is no longer shared with the caller. */
export async function getConversation(
  deps: ChatDeps,
  userId: number,
  conversationId: number,
): Promise<ConversationSummary> {
  const row = await findOwnedConversationSummary(deps.db.kysely, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return toConversationSummary(row);
}

/** A user's title is never replaced by an automatic one. */
export async function renameConversation(deps: ChatDeps, userId: number, conversationId: number, title: string) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  return toConversation(await updateConversationTitle(deps.db.kysely, conversationId, title, 'user'));
}

export async function deleteConversation(deps: ChatDeps, userId: number, conversationId: number) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  await deps.replies.stop(conversationId);
  await deps.db.kysely.transaction().execute((tx) => deleteConversationWithMessages(tx, conversationId));
  return { message: CHAT_MESSAGES.conversationDeleted };
}

/** Messages as the client shows them: with their attachments, and user messages with their versions. */
async function toMessages(db: Executor, conversationId: number, rows: MessageRow[]): Promise<Message[]> {
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

interface NewUserMessage {
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
async function saveUserMessage(
  tx: Executor,
  kind: DatabaseKind,
  at: string,
  bot: ReplyBot,
  conversationId: number,
  m: NewUserMessage,
): Promise<{ message: Message; history?: ContextRow[]; replyId?: number }> {
  const ids = await requireConversationFiles(tx, conversationId, m.fileIds ?? []);
  const window = m.replaces ? 0 : (m.contextWindow ?? 0);
  const recent =
    m.recent && m.recent[0]?.status !== 'streaming'
      ? m.recent
      : await findLastMessages(tx, conversationId, Math.max(1, window));
  const last = recent[0];
  const parentId = m.replaces ? m.replaces.parent_id : (last?.id ?? null);
  const history = m.contextWindow === undefined || m.replaces ? undefined : contextFromRecent(recent, window);
  if (history) m.onHistory?.(history);
  if (m.replaces) await deactivateFrom(tx, conversationId, m.replaces.id);
  const inserted = await insertMessageTouching(
    tx,
    kind,
    { conversationId, parentId, role: 'user', content: m.content, status: 'complete', fileIds: ids },
    at,
    m.withReply ? bot.id : undefined,
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
  const saved = await deps.db.kysely
    .transaction()
    .execute((tx) => saveUserMessage(tx, deps.db.kind, at, bot, conversationId, { userId, content }));
  return saved.message;
}

/** The caller's message and its conversation; someone else's is a 404 like a missing one. */
async function requireMessage(db: Executor, userId: number, messageId: number) {
  const message = await findMessage(db, messageId);
  if (!message) throw notFound('Message');
  const conversation = await findOwnedConversation(db, userId, message.conversation_id);
  if (!conversation) throw notFound('Message');
  return { message, conversation };
}

/**
 * The version switcher: makes the branch through `messageId` (its earlier turns, then its most recent
 * replies) the conversation's active branch, and answers it. Refused while a reply is being written.
 */
export async function activateMessage(deps: ChatDeps, userId: number, messageId: number): Promise<Message[]> {
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
  return toMessages(db, conversation.id, await findMessages(db, conversation.id));
}

/** The conversation an edit of `messageId` continues, checked to be the caller's and a user message. */
export async function conversationOfEdit(deps: ChatDeps, userId: number, messageId: number) {
  const { message, conversation } = await requireMessage(deps.db.kysely, userId, messageId);
  if (message.role !== 'user') throw new AppError('BAD_REQUEST', CHAT_MESSAGES.onlyUserMessagesEdit);
  if (!message.active) throw new AppError('CONFLICT', CHAT_MESSAGES.editInactive);
  return conversation.id;
}

export async function stopReply(deps: ChatDeps, userId: number, conversationId: number) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  return { stopped: await deps.replies.stop(conversationId) };
}

/** What a reply answers: a new message, or (regenerate) the conversation's last user message. */
export type ReplyTarget =
  | {
      kind: 'message';
      content: string;
      /** Files attached to the conversation that this message carries. */
      fileIds?: number[];
      /**
       * The spec's simple chat saves the user's message with POST /api/messages and then asks for the reply
       * with POST /api/bot-message, which carries the same text again. So when the conversation's latest
       * message is already this user message, the reply answers it instead of saving it a second time.
       */
      reuseIfLatest?: boolean;
    }
  | { kind: 'regenerate' }
  /** A new version of an earlier user message: the branch continues from it (POST /messages/{id}/edit). */
  | { kind: 'edit'; messageId: number; content: string };

export type ReplyOutcome =
  | { status: 'complete' | 'stopped'; message: Message | null }
  | { status: 'failed'; error: string; message: Message | null };

export interface PendingReply {
  /** The user message saved for this reply (an edit: the new version); null when regenerating or answering an existing message. */
  userMessage: Message | null;
  /** The reply's own message, saved with status `streaming` until it ends. */
  replyId: number;
  /**
   * Writes the reply, handing each event (start, sources, steps, text) to `onEvent`, and saves it: whole
   * (`complete`), the part written before a stop (`stopped`), or the part written before a failure (`failed`).
   * The reply's row exists from the start and is checkpointed every second; when no text came it is removed
   * and `message` is null. Never rejects.
   */
  run(onEvent: (event: ChatStreamEvent) => void): Promise<ReplyOutcome>;
  /** Stops the reply as POST /stop does, e.g. when the client goes away. */
  stop(): void;
}

interface ReplyJob {
  userId: number;
  bot: ReplyBot;
  question: Message;
  /** Regenerating: the earlier replies to `question` are replaced once the new one is saved. */
  replaces: boolean;
  claim: ReplyClaim;
  /** The reply's own row, saved with status `streaming` before the model is asked. */
  replyId: number;
  /** The conversation's title was its default one when the reply began, so the reply may name it. */
  untitled: boolean;
  /** The model's memory of the conversation, when it was read with the question (else writeReply reads it). */
  history?: ContextRow[];
}

/**
 * Everything that can refuse a reply happens here, before the caller commits to a response: ownership,
 * an inactive bot, a reply already running in the conversation. Then the user message is saved, so it is
 * kept whatever happens to the reply, and the reply's row is created, both in one transaction: this is the
 * path to the reply's first token, and each statement of it is a round trip on PostgreSQL.
 */
export async function beginReply(
  deps: ReplyDeps,
  userId: number,
  request: { conversationId: number; botId?: number; target: ReplyTarget },
): Promise<PendingReply> {
  const db = deps.db.kysely;
  const found = await findReplyConversation(deps.db, userId, request.conversationId, request.botId);
  if (!found) throw notFound('Conversation');
  const { conversation, bot, recent } = found;
  if (bot.id !== conversation.botId) throw new AppError('BAD_REQUEST', CHAT_MESSAGES.wrongBot);
  if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
  const claim = await deps.replies.claim(conversation.id);
  if (!claim) throw new AppError('CONFLICT', CHAT_MESSAGES.replyRunning);
  let early: Writing | undefined;
  try {
    const at = isoNow(deps.clock);
    const { target } = request;
    // PostgreSQL: the model is asked as soon as the model's memory is read, while the message and the reply's
    // row are saved; the reply's events wait for the save (a round trip or more here). A message with files
    // is saved first, as its attachments go to the model.
    const startEarly =
      deps.db.kind === 'postgres' && target.kind === 'message' && !target.reuseIfLatest && !target.fileIds?.length
        ? (history: ContextRow[]) => {
            const question = unsavedQuestion(conversation.id, target.content, at);
            early = startWriting(deps, { userId, bot, claim, question, history });
          }
        : undefined;
    const save = async (tx: Executor) => {
      const resolved = await resolveQuestion(tx, deps.db.kind, at, bot, conversation.id, userId, target, {
        onHistory: startEarly,
        recent,
      });
      const replyId =
        resolved.replyId ?? (await insertMessage(tx, newReply(conversation.id, resolved.question.id, bot.id), at)).id;
      return { ...resolved, replyId };
    };
    // On PostgreSQL a new message with its reply row, or a regenerated reply's row, is one statement, atomic by
    // itself, and the reads around it see the same in a READ COMMITTED transaction or out of one: without BEGIN
    // and COMMIT the first token waits for two round trips less. (A conversation's first message also records
    // its activity, a statement of its own.) An edit writes twice and keeps its transaction. On SQLite the
    // replies that start together share one commit.
    const { question, saved, history, replyId } =
      deps.db.kind === 'sqlite'
        ? await inSharedTransaction(db, save)
        : target.kind === 'edit'
          ? await db.transaction().execute(save)
          : await save(db);
    const job: ReplyJob = {
      userId,
      bot,
      question,
      replaces: target.kind === 'regenerate',
      claim,
      replyId,
      untitled: conversation.titleSource === 'default',
      history,
    };
    return {
      userMessage: saved,
      replyId,
      stop: claim.stop,
      run: (onEvent) => writeReply(deps, job, onEvent, early).finally(claim.release),
    };
  } catch (error) {
    // A model call started early goes unanswered.
    if (early) claim.stop();
    claim.release();
    throw error;
  }
}

async function resolveQuestion(
  db: Executor,
  kind: DatabaseKind,
  at: string,
  bot: ReplyBot,
  conversationId: number,
  userId: number,
  target: ReplyTarget,
  read: Pick<NewUserMessage, 'onHistory' | 'recent'>,
): Promise<{ question: Message; saved: Message | null; history?: ContextRow[]; replyId?: number }> {
  if (target.kind === 'regenerate') {
    const last = await findLastMessage(db, conversationId, 'user');
    if (!last) throw new AppError('CONFLICT', CHAT_MESSAGES.nothingToRegenerate);
    return { question: toMessage(last, await findAttachments(db, [last])), saved: null };
  }
  if (target.kind === 'message' && target.reuseIfLatest) {
    const latest = await findLastMessage(db, conversationId);
    if (latest?.role === 'user' && latest.content === target.content)
      return { question: toMessage(latest), saved: null };
  }
  if (target.kind === 'edit') {
    const replaces = await findMessage(db, target.messageId);
    // Checked by conversationOfEdit; looked at again under the conversation's reply lock.
    if (!replaces?.active || replaces.conversation_id !== conversationId) throw notFound('Message');
    const fileIds = fileIdsOf(replaces);
    const { message, replyId } = await saveUserMessage(db, kind, at, bot, conversationId, {
      userId,
      content: target.content,
      fileIds,
      replaces,
      withReply: true,
    });
    return { question: message, saved: message, replyId };
  }
  const { message, history, replyId } = await saveUserMessage(db, kind, at, bot, conversationId, {
    userId,
    content: target.content,
    fileIds: target.fileIds,
    contextWindow: contextWindowOf(bot.config),
    withReply: true,
    ...read,
  });
  return { question: message, saved: message, history, replyId };
}

/** How often messages saved since are written into the full-text index (SQLite, migration 0013). */
export const SEARCH_INDEX_MS = 1_000;

export const indexNewMessages = (deps: Pick<ChatDeps, 'db'>) => indexMessages(deps.db);

/** How often a reply's text so far is saved: a crash loses at most this much of it. */
export const REPLY_CHECKPOINT_MS = 1_000;

interface Checkpoint {
  deps: ReplyDeps;
  replyId: number;
  textSoFar: () => string;
  /** The text last written; the row starts empty. */
  saved: string;
}

/** The replies being written in this process: one timer saves them all, in one transaction per database. */
const checkpoints = new Set<Checkpoint>();
let checkpointTimer: NodeJS.Timeout | undefined;
let checkpointing: Promise<unknown> = Promise.resolve();

/**
 * Saves the text so far at most every REPLY_CHECKPOINT_MS, one round of writes at a time, and refreshes the
 * checkpoint time even when no text came (a long research step), so other instances can tell a live reply
 * from a dead one.
 */
function checkpointer(deps: ReplyDeps, replyId: number, textSoFar: () => string) {
  const checkpoint: Checkpoint = { deps, replyId, textSoFar, saved: '' };
  checkpoints.add(checkpoint);
  if (!checkpointTimer) {
    checkpointTimer = setInterval(() => (checkpointing = checkpointing.then(saveCheckpoints)), REPLY_CHECKPOINT_MS);
    checkpointTimer.unref();
  }
  return async () => {
    checkpoints.delete(checkpoint);
    if (!checkpoints.size) {
      clearInterval(checkpointTimer);
      checkpointTimer = undefined;
    }
    await checkpointing;
  };
}

async function saveCheckpoints() {
  const byDb = new Map<ReplyDeps['db'], Checkpoint[]>();
  for (const checkpoint of checkpoints) {
    const same = byDb.get(checkpoint.deps.db);
    if (same) same.push(checkpoint);
    else byDb.set(checkpoint.deps.db, [checkpoint]);
  }
  await Promise.all(
    [...byDb].map(async ([db, group]) => {
      try {
        const now = isoNow(group[0]!.deps.clock);
        const texts = group.map((checkpoint) => ({ checkpoint, text: checkpoint.textSoFar() }));
        const replies = texts.map(({ checkpoint, text }) => ({
          id: checkpoint.replyId,
          content: text === checkpoint.saved ? null : text,
        }));
        // One statement on PostgreSQL, needing no transaction; on SQLite one commit for them all.
        if (db.kind === 'postgres') await checkpointReplies(db.kysely, db.kind, replies, now);
        else await db.kysely.transaction().execute((tx) => checkpointReplies(tx, db.kind, replies, now));
        const changed = texts.filter(({ checkpoint, text }) => text !== checkpoint.saved);
        for (const { checkpoint, text } of changed) checkpoint.saved = text;
      } catch (err) {
        group[0]!.deps.log.warn({ err, replies: group.length }, 'chat reply: checkpoint failed');
      }
    }),
  );
}

/** What the model part of a reply needs: the question need not be saved yet (see beginReply). */
type WritingJob = Pick<ReplyJob, 'userId' | 'bot' | 'question' | 'claim' | 'history'>;

/** The model's part of a reply, under way; its events wait until someone attaches to them. */
interface Writing {
  text(): string;
  /** Hands the events so far, then each as it comes, to `onEvent`. */
  attach(onEvent: (event: ChatStreamEvent) => void): void;
  /** Never rejects. */
  done: Promise<{
    error: string | null;
    usage: ReplyUsage;
    firstTokenMs: number | null;
    context: ReplyContext;
    startedAt: number;
  }>;
}

/** A question that is being saved: what the model and the context providers read of it. */
const unsavedQuestion = (conversationId: number, content: string, at: string): Message => ({
  id: 0,
  conversationId,
  role: 'user',
  content,
  status: 'complete',
  createdAt: at,
  sources: [],
  steps: [],
  attachments: [],
});

/** Asks the model (with the context providers first) and collects the reply's text and events. */
function startWriting(deps: ReplyDeps, job: WritingJob): Writing {
  const { bot, question, claim } = job;
  const startedAt = performance.now();
  let firstTokenMs: number | null = null;
  let text = '';
  let usage: ReplyUsage = { inputTokens: null, outputTokens: null };
  let error: string | null = null;
  let onEvent: ((event: ChatStreamEvent) => void) | null = null;
  const waiting: ChatStreamEvent[] = [];
  const emit = (event: ChatStreamEvent) => (onEvent ? onEvent(event) : waiting.push(event));
  const context = newReplyContext();
  const done = (async () => {
    try {
      const history =
        job.history ??
        (await findContextMessages(deps.db.kysely, question.conversationId, question.id, contextWindowOf(bot.config)));
      const input: ReplyContextInput = {
        userId: job.userId,
        bot,
        question,
        signal: claim.signal,
        log: deps.log,
        emit,
      };
      for (const provide of deps.contextProviders ?? []) await provide(input, context);
      const handlers = {
        onText(piece: string) {
          firstTokenMs ??= Math.round(performance.now() - startedAt);
          text += piece;
          emit({ event: 'delta', data: { text: piece } });
        },
        onUsage: (u: ReplyUsage) => (usage = u),
      };
      const ask = (tools: ReplyContext['tools'] | undefined) => {
        if (context.sources.length) emit({ event: 'sources', data: { sources: context.sources } });
        return runChatReply(
          {
            ai: deps.ai,
            botName: bot.name,
            ...composePrompt(bot, history, question.content, context),
            tools,
            offlineText: offlineReplyWithSources(bot.name, context.sources),
            signal: claim.signal,
            timeouts: deps.timeouts,
            log: deps.log,
          },
          handlers,
        );
      };
      await askWithContextTools(context, deps.log, ask);
      if (!text && !claim.signal.aborted) error = CHAT_ERRORS.empty;
    } catch (err) {
      if (!(err instanceof ChatReplyError)) deps.log.error({ err }, 'chat reply failed');
      error = err instanceof ChatReplyError ? err.message : CHAT_ERRORS.unknown;
    }
    return { error, usage, firstTokenMs, context, startedAt };
  })();
  return {
    text: () => text,
    attach(to) {
      onEvent = to;
      for (const event of waiting.splice(0)) to(event);
    },
    done,
  };
}

async function writeReply(
  deps: ReplyDeps,
  job: ReplyJob,
  onEvent: (event: ChatStreamEvent) => void,
  writing = startWriting(deps, job),
): Promise<ReplyOutcome> {
  onEvent({ event: 'start', data: { messageId: job.replyId } });
  writing.attach(onEvent);
  const stopCheckpoints = checkpointer(deps, job.replyId, writing.text);
  const written = await writing.done;
  let { error } = written;
  await stopCheckpoints();
  const stopped = job.claim.signal.aborted;
  const status: MessageStatus = error ? 'failed' : stopped ? 'stopped' : 'complete';
  let message: Message | null = null;
  try {
    message = await saveReply(deps, job, {
      content: writing.text(),
      status,
      sources: written.context.sources,
      steps: written.context.steps,
      ...written.usage,
      firstTokenMs: written.firstTokenMs,
      replyMs: Math.round(performance.now() - written.startedAt),
    });
  } catch (err) {
    // E.g. the conversation was deleted while its reply was being written.
    deps.log.warn({ err, conversationId: job.question.conversationId }, 'chat reply: could not save the reply');
    error = (await whatWasDeleted(deps, job)) ?? error ?? CHAT_ERRORS.unknown;
  }
  if (message?.status === 'complete' && job.untitled) nameConversation(deps, job, message.content);
  return error ? { status: 'failed', error, message } : { status: stopped ? 'stopped' : 'complete', message };
}

/** Says what went away when a reply could not be saved: the account, the bot or the conversation. */
async function whatWasDeleted(deps: ReplyDeps, job: ReplyJob): Promise<string | null> {
  try {
    const exists = await findReplyOwners(deps.db.kysely, {
      userId: job.userId,
      botId: job.bot.id,
      conversationId: job.question.conversationId,
    });
    if (!exists.user) return CHAT_MESSAGES.accountDeletedMidReply;
    if (!exists.bot) return CHAT_MESSAGES.botDeletedMidReply;
    if (!exists.conversation) return CHAT_MESSAGES.conversationDeletedMidReply;
  } catch (err) {
    deps.log.warn({ err }, 'chat reply: could not tell why the reply was not saved');
  }
  return null;
}

/**
 * Names a conversation still titled 'Conversation with {name}' after its subject (decision 0014), in the
 * background: the reply never waits for it, and a user's rename in the meantime wins. Only asked for when the
 * title was the default one as the reply began: a title never goes back to the default.
 */
function nameConversation(deps: ReplyDeps, job: ReplyJob, reply: string) {
  const task = (async () => {
    const db = deps.db.kysely;
    const conversation = await findOwnedConversation(db, job.userId, job.question.conversationId);
    if (conversation?.title_source !== 'default') return;
    const title = await conversationTitleFor(deps, { question: job.question.content, reply });
    await setAutomaticTitle(db, conversation.id, title);
  })().catch((err: unknown) => deps.log.warn({ err }, 'conversation title: could not name the conversation'));
  deps.background?.add(task);
  void task.finally(() => deps.background?.delete(task));
}

interface ReplySave {
  job: ReplyJob;
  reply: FinishedReply;
  at: string;
  resolve: (message: Message | null) => void;
  reject: (error: unknown) => void;
}

/**
 * The finished reply, or null (and its row removed) when the model wrote nothing. Replies that end in the same
 * turn of the event loop are saved in one transaction per database (group commit): under load many end
 * together, and each commit costs more than the statements in it (SQLite writes the full-text index and the
 * WAL then, PostgreSQL flushes its log). A failed group is saved again reply by reply, so that one reply's
 * failure stays its own. The bot's use is counted after, outside the transaction (see recordBotUse).
 */
async function saveReply(deps: ReplyDeps, job: ReplyJob, reply: FinishedReply): Promise<Message | null> {
  const at = isoNow(deps.clock);
  const message = await new Promise<Message | null>((resolve, reject) =>
    queueReplySave(deps.db, { job, reply, at, resolve, reject }),
  );
  if (message && reply.status !== 'failed') {
    await recordBotUse(deps.db.kysely, job.bot.id, at).catch((err: unknown) =>
      deps.log.warn({ err, botId: job.bot.id }, "chat reply: could not count the bot's use"),
    );
  }
  return message;
}

const queueReplySave = batchPerTurn<Db, ReplySave>((db, group) => void saveReplies(db, group));

const settle = (save: ReplySave, result: Message | null | Error) =>
  result instanceof Error ? save.reject(result) : save.resolve(result);

async function saveReplies(db: Db, group: ReplySave[]) {
  try {
    const results = await saveGroup(db, group);
    group.forEach((save, i) => settle(save, results[i]!));
  } catch (error) {
    if (group.length === 1) return group[0]!.reject(error);
    for (const save of group) saveGroup(db, [save]).then(([result]) => settle(save, result!), save.reject);
  }
}

/**
 * In a transaction, or on PostgreSQL as the one statement of finishReplies when that is all there is to do (no
 * reply without text to remove, no earlier reply to replace): atomic by itself, without the round trips of
 * BEGIN and COMMIT that each reply's `done` would wait for.
 */
function saveGroup(db: Db, group: ReplySave[]) {
  const oneStatement = db.kind === 'postgres' && group.every(({ job, reply }) => reply.content && !job.replaces);
  return oneStatement
    ? saveRepliesIn(db.kysely, db.kind, group)
    : db.kysely.transaction().execute((tx) => saveRepliesIn(tx, db.kind, group));
}

/** Each reply's saved message, null when it had no text, or the 404 of a reply whose row is gone. */
async function saveRepliesIn(
  tx: Executor,
  kind: DatabaseKind,
  group: ReplySave[],
): Promise<(Message | null | Error)[]> {
  const results: (Message | null | Error)[] = [];
  for (const { job, reply } of group) if (!reply.content) await deleteMessage(tx, job.replyId);
  const finishing = group.filter(({ reply }) => reply.content);
  const rows = await finishReplies(
    tx,
    kind,
    finishing.map(({ job, reply, at }) => ({
      id: job.replyId,
      conversationId: job.question.conversationId,
      reply,
      now: at,
    })),
  );
  for (const { job, reply } of group) {
    if (!reply.content) {
      results.push(null);
      continue;
    }
    const row = rows.get(job.replyId);
    if (!row) {
      results.push(notFound('Message'));
      continue;
    }
    // Only now, so a regeneration that fails before writing anything leaves the previous reply in place.
    if (job.replaces) await deleteRepliesTo(tx, job.question.id, job.replyId);
    results.push(toMessage(row));
  }
  return results;
}

/**
 * Marks replies whose instance died mid-reply as `interrupted`; they keep what had streamed. `staleMs` (see
 * CHAT_STALE_REPLY_MS) must stay well above REPLY_CHECKPOINT_MS, or live replies would be taken for dead.
 */
export async function markInterruptedReplies(deps: Pick<ChatDeps, 'db' | 'clock'>, staleMs: number): Promise<number> {
  const staleBefore = isoIn(deps.clock, -staleMs);
  const result = await markStaleRepliesInterrupted(deps.db.kysely, staleBefore);
  return Number(result.numUpdatedRows);
}
