import type { FastifyBaseLogger } from 'fastify';
import type { Bot } from '@shared/contracts/bots';
import {
  CHAT_MESSAGES,
  conversationTitle,
  type ChatStreamEvent,
  type Conversation,
  type CreateConversationBody,
  type Message,
  type MessageStatus,
} from '@shared/contracts/chat';
import { composePrompt, contextWindowOf } from '../../ai/compose-prompt';
import type { Ai } from '../../ai/providers';
import {
  CHAT_ERRORS,
  ChatReplyError,
  runChatReply,
  ToolsUnsupportedError,
  type ChatTimeouts,
  type ReplyUsage,
} from '../../ai/tasks/chat-reply';
import type { Db, Executor } from '../../db/database';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { recordBotUse } from '../bots/bots.repository';
import { requireOwnedBot } from '../bots/bots.service';
import {
  deleteConversationWithMessages,
  findConversationsOfBot,
  findOwnedConversation,
  insertConversation,
  toConversation,
  touchConversation,
  updateConversationTitle,
  type ConversationRow,
} from './conversations.repository';
import {
  checkpointReply,
  countConversationFiles,
  deleteMessage,
  deleteRepliesAfter,
  findAttachments,
  findContextMessages,
  findLastMessage,
  findMessages,
  finishReply,
  insertMessage,
  markStaleRepliesInterrupted,
  toMessage,
  type FinishedReply,
} from './messages.repository';
import {
  newReplyContext,
  offlineReplyWithSources,
  type ReplyContext,
  type ReplyContextInput,
  type ReplyContextProvider,
} from './reply-context';
import type { ReplyEvents } from './reply-events';
import type { ReplyClaim, ReplyRegistry } from './reply-registry';

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
}

/** Replies log through the request's logger, so their lines carry its request id. */
export type ReplyDeps = ChatDeps & { log: FastifyBaseLogger };

/** The caller's conversation, or 404 whether it is missing or someone else's. */
async function requireConversation(db: Executor, userId: number, conversationId: number): Promise<ConversationRow> {
  const row = await findOwnedConversation(db, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return row;
}

export async function createConversation(
  deps: ChatDeps,
  userId: number,
  body: CreateConversationBody,
): Promise<Conversation> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const bot = await requireOwnedBot(tx, userId, body.botId);
    if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
    const row = await insertConversation(
      tx,
      { botId: bot.id, userId, title: body.title || conversationTitle(bot.name) },
      at,
    );
    await recordActivity(tx, { userId, type: 'chat_started', bot, at });
    return toConversation(row);
  });
}

export async function listConversations(deps: ChatDeps, userId: number, botId: number): Promise<Conversation[]> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return (await findConversationsOfBot(deps.db.kysely, userId, botId)).map(toConversation);
}

export async function getConversation(deps: ChatDeps, userId: number, conversationId: number): Promise<Conversation> {
  return toConversation(await requireConversation(deps.db.kysely, userId, conversationId));
}

export async function renameConversation(deps: ChatDeps, userId: number, conversationId: number, title: string) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  return toConversation(await updateConversationTitle(deps.db.kysely, conversationId, title));
}

export async function deleteConversation(deps: ChatDeps, userId: number, conversationId: number) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  await deps.replies.stop(conversationId);
  await deps.db.kysely.transaction().execute((tx) => deleteConversationWithMessages(tx, conversationId));
  return { message: CHAT_MESSAGES.conversationDeleted };
}

export async function listMessages(deps: ChatDeps, userId: number, conversationId: number): Promise<Message[]> {
  await requireConversation(deps.db.kysely, userId, conversationId);
  const rows = await findMessages(deps.db.kysely, conversationId);
  const attachments = await findAttachments(deps.db.kysely, rows);
  return rows.map((row) => toMessage(row, attachments));
}

async function saveUserMessage(
  deps: ChatDeps,
  conversationId: number,
  content: string,
  fileIds: number[] = [],
): Promise<Message> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const ids = await requireConversationFiles(tx, conversationId, fileIds);
    const row = await insertMessage(
      tx,
      { conversationId, role: 'user', content, status: 'complete', fileIds: ids },
      at,
    );
    await touchConversation(tx, conversationId, at);
    return toMessage(row, await findAttachments(tx, [row]));
  });
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
  await requireConversation(deps.db.kysely, userId, conversationId);
  return saveUserMessage(deps, conversationId, content);
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
  | { kind: 'regenerate' };

export type ReplyOutcome =
  | { status: 'complete' | 'stopped'; message: Message | null }
  | { status: 'failed'; error: string; message: Message | null };

export interface PendingReply {
  /** The user message saved for this reply; null when regenerating or answering an existing message. */
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
  bot: Bot;
  question: Message;
  /** Regenerating: the earlier replies to `question` are replaced once the new one is saved. */
  replaces: boolean;
  claim: ReplyClaim;
  /** The reply's own row, saved with status `streaming` before the model is asked. */
  replyId: number;
}

/**
 * Everything that can refuse a reply happens here, before the caller commits to a response: ownership,
 * an inactive bot, a reply already running in the conversation. Then the user message is saved, so it is
 * kept whatever happens to the reply, and the reply's row is created.
 */
export async function beginReply(
  deps: ReplyDeps,
  userId: number,
  request: { conversationId: number; botId?: number; target: ReplyTarget },
): Promise<PendingReply> {
  const db = deps.db.kysely;
  const conversation = await requireConversation(db, userId, request.conversationId);
  const bot = await requireOwnedBot(db, userId, request.botId ?? conversation.bot_id);
  if (bot.id !== conversation.bot_id) throw new AppError('BAD_REQUEST', CHAT_MESSAGES.wrongBot);
  if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
  const claim = await deps.replies.claim(conversation.id);
  if (!claim) throw new AppError('CONFLICT', CHAT_MESSAGES.replyRunning);
  try {
    const { question, saved } = await resolveQuestion(deps, conversation.id, request.target);
    const replyRow = await insertMessage(
      db,
      { conversationId: conversation.id, role: 'assistant', content: '', status: 'streaming' },
      isoNow(deps.clock),
    );
    const job: ReplyJob = {
      userId,
      bot,
      question,
      replaces: request.target.kind === 'regenerate',
      claim,
      replyId: replyRow.id,
    };
    return {
      userMessage: saved,
      replyId: replyRow.id,
      stop: claim.stop,
      run: (onEvent) => writeReply(deps, job, onEvent).finally(claim.release),
    };
  } catch (error) {
    claim.release();
    throw error;
  }
}

async function resolveQuestion(deps: ChatDeps, conversationId: number, target: ReplyTarget) {
  const db = deps.db.kysely;
  if (target.kind === 'regenerate') {
    const last = await findLastMessage(db, conversationId, 'user');
    if (!last) throw new AppError('CONFLICT', CHAT_MESSAGES.nothingToRegenerate);
    return { question: toMessage(last, await findAttachments(db, [last])), saved: null };
  }
  if (target.reuseIfLatest) {
    const latest = await findLastMessage(db, conversationId);
    if (latest?.role === 'user' && latest.content === target.content)
      return { question: toMessage(latest), saved: null };
  }
  const saved = await saveUserMessage(deps, conversationId, target.content, target.fileIds);
  return { question: saved, saved };
}

/** How often a reply's text so far is saved: a crash loses at most this much of it. */
export const REPLY_CHECKPOINT_MS = 1_000;

/**
 * Saves the text so far at most every REPLY_CHECKPOINT_MS, one write at a time, and at least that often even
 * when no text came (a long research step), so other instances can tell a live reply from a dead one.
 */
function checkpointer(deps: ReplyDeps, replyId: number, textSoFar: () => string) {
  let writing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    writing = writing
      .then(() => checkpointReply(deps.db.kysely, replyId, textSoFar(), isoNow(deps.clock)))
      .catch((err: unknown) => deps.log.warn({ err, replyId }, 'chat reply: checkpoint failed'));
  }, REPLY_CHECKPOINT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await writing;
  };
}

async function writeReply(
  deps: ReplyDeps,
  job: ReplyJob,
  onEvent: (event: ChatStreamEvent) => void,
): Promise<ReplyOutcome> {
  const { bot, question, claim } = job;
  const startedAt = performance.now();
  let firstTokenMs: number | null = null;
  let text = '';
  let usage: ReplyUsage = { inputTokens: null, outputTokens: null };
  let error: string | null = null;
  onEvent({ event: 'start', data: { messageId: job.replyId } });
  const stopCheckpoints = checkpointer(deps, job.replyId, () => text);
  const context = newReplyContext();
  try {
    const history = await findContextMessages(
      deps.db.kysely,
      question.conversationId,
      question.id,
      contextWindowOf(bot.config),
    );
    const input: ReplyContextInput = {
      userId: job.userId,
      bot,
      question,
      signal: claim.signal,
      log: deps.log,
      emit: onEvent,
    };
    for (const provide of deps.contextProviders ?? []) await provide(input, context);
    const handlers = {
      onText(piece: string) {
        firstTokenMs ??= Math.round(performance.now() - startedAt);
        text += piece;
        onEvent({ event: 'delta', data: { text: piece } });
      },
      onUsage: (u: ReplyUsage) => (usage = u),
    };
    const ask = (tools: ReplyContext['tools'] | undefined) => {
      if (context.sources.length) onEvent({ event: 'sources', data: { sources: context.sources } });
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
    try {
      await ask(context.tools);
    } catch (err) {
      // Some local models cannot call tools: the providers then gather up front what the tools would have.
      if (!(err instanceof ToolsUnsupportedError) || !context.withoutTools) throw err;
      deps.log.info({ model: deps.ai.modelId }, 'chat reply: the model refused tools; researching up front');
      await context.withoutTools();
      await ask(undefined);
    }
    if (!text && !claim.signal.aborted) error = CHAT_ERRORS.empty;
  } catch (err) {
    if (!(err instanceof ChatReplyError)) deps.log.error({ err }, 'chat reply failed');
    error = err instanceof ChatReplyError ? err.message : CHAT_ERRORS.unknown;
  }
  await stopCheckpoints();
  const stopped = claim.signal.aborted;
  const status: MessageStatus = error ? 'failed' : stopped ? 'stopped' : 'complete';
  let message: Message | null = null;
  try {
    message = await saveReply(deps, job, {
      content: text,
      status,
      sources: context.sources,
      steps: context.steps,
      ...usage,
      firstTokenMs,
      replyMs: Math.round(performance.now() - startedAt),
    });
  } catch (err) {
    // E.g. the conversation was deleted while its reply was being written.
    deps.log.warn({ err, conversationId: question.conversationId }, 'chat reply: could not save the reply');
    error ??= CHAT_ERRORS.unknown;
  }
  return error ? { status: 'failed', error, message } : { status: stopped ? 'stopped' : 'complete', message };
}

/** The finished reply, or null (and its row removed) when the model wrote nothing. */
async function saveReply(deps: ChatDeps, job: ReplyJob, reply: FinishedReply): Promise<Message | null> {
  const at = isoNow(deps.clock);
  const { conversationId } = job.question;
  return deps.db.kysely.transaction().execute(async (tx) => {
    if (!reply.content) {
      await deleteMessage(tx, job.replyId);
      return null;
    }
    // Only now, so a regeneration that fails before writing anything leaves the previous reply in place.
    if (job.replaces) await deleteRepliesAfter(tx, conversationId, job.question.id, job.replyId);
    const row = await finishReply(tx, job.replyId, reply, at);
    if (!row) throw notFound('Message');
    await touchConversation(tx, conversationId, at);
    if (reply.status !== 'failed') await recordBotUse(tx, job.bot.id, at);
    return toMessage(row);
  });
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
