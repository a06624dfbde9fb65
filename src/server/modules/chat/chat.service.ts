import type { FastifyBaseLogger } from 'fastify';
import type { Bot } from '@shared/contracts/bots';
import {
  CHAT_MESSAGES,
  conversationTitle,
  type Conversation,
  type CreateConversationBody,
  type Message,
  type MessageStatus,
} from '@shared/contracts/chat';
import { composePrompt, contextWindowOf } from '../../ai/compose-prompt';
import type { Ai } from '../../ai/providers';
import { CHAT_ERRORS, ChatReplyError, streamChatReply, type ChatTimeouts } from '../../ai/tasks/chat-reply';
import type { Db, Executor } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
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
  deleteRepliesAfter,
  findContextMessages,
  findLastMessage,
  findMessages,
  insertMessage,
  toMessage,
} from './messages.repository';
import type { ReplyClaim, ReplyRegistry } from './reply-registry';

export interface ChatDeps {
  db: Db;
  clock: Clock;
  ai: Ai;
  replies: ReplyRegistry;
  timeouts: ChatTimeouts;
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
  return (await findMessages(deps.db.kysely, conversationId)).map(toMessage);
}

async function saveUserMessage(deps: ChatDeps, conversationId: number, content: string): Promise<Message> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const row = await insertMessage(tx, { conversationId, role: 'user', content, status: 'complete' }, at);
    await touchConversation(tx, conversationId, at);
    return toMessage(row);
  });
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
  /**
   * Writes the reply, handing each piece of text to `onText`, and saves it: whole (`complete`), the part
   * written before a stop (`stopped`), or the part written before a failure (`failed`). Nothing is saved when
   * no text came; `message` is then null. Never rejects.
   */
  run(onText: (text: string) => void): Promise<ReplyOutcome>;
  /** Stops the reply as POST /stop does, e.g. when the client goes away. */
  stop(): void;
}

interface ReplyJob {
  bot: Bot;
  question: Message;
  /** Regenerating: the earlier replies to `question` are replaced once the new one is saved. */
  replaces: boolean;
  claim: ReplyClaim;
}

/**
 * Everything that can refuse a reply happens here, before the caller commits to a response: ownership,
 * an inactive bot, a reply already running in the conversation. Then the user message is saved, so it is
 * kept whatever happens to the reply.
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
    const job: ReplyJob = { bot, question, replaces: request.target.kind === 'regenerate', claim };
    return {
      userMessage: saved,
      stop: claim.stop,
      run: (onText) => writeReply(deps, job, onText).finally(claim.release),
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
    return { question: toMessage(last), saved: null };
  }
  if (target.reuseIfLatest) {
    const latest = await findLastMessage(db, conversationId);
    if (latest?.role === 'user' && latest.content === target.content)
      return { question: toMessage(latest), saved: null };
  }
  const saved = await saveUserMessage(deps, conversationId, target.content);
  return { question: saved, saved };
}

async function writeReply(deps: ReplyDeps, job: ReplyJob, onText: (text: string) => void): Promise<ReplyOutcome> {
  const { bot, question, claim } = job;
  let text = '';
  let error: string | null = null;
  try {
    const history = await findContextMessages(
      deps.db.kysely,
      question.conversationId,
      question.id,
      contextWindowOf(bot.config),
    );
    const prompt = composePrompt(bot, history, question.content);
    const pieces = streamChatReply({
      ai: deps.ai,
      botName: bot.name,
      ...prompt,
      signal: claim.signal,
      timeouts: deps.timeouts,
      log: deps.log,
    });
    for await (const piece of pieces) {
      text += piece;
      onText(piece);
    }
    if (!text && !claim.signal.aborted) error = CHAT_ERRORS.empty;
  } catch (err) {
    if (!(err instanceof ChatReplyError)) deps.log.error({ err }, 'chat reply failed');
    error = err instanceof ChatReplyError ? err.message : CHAT_ERRORS.unknown;
  }
  const stopped = claim.signal.aborted;
  const status: MessageStatus = error ? 'failed' : stopped ? 'stopped' : 'complete';
  let message: Message | null = null;
  try {
    message = text ? await saveReply(deps, job, text, status) : null;
  } catch (err) {
    // E.g. the conversation was deleted while its reply was being written.
    deps.log.warn({ err, conversationId: question.conversationId }, 'chat reply: could not save the reply');
    error ??= CHAT_ERRORS.unknown;
  }
  return error ? { status: 'failed', error, message } : { status: stopped ? 'stopped' : 'complete', message };
}

async function saveReply(deps: ChatDeps, job: ReplyJob, content: string, status: MessageStatus): Promise<Message> {
  const at = isoNow(deps.clock);
  const { conversationId } = job.question;
  return deps.db.kysely.transaction().execute(async (tx) => {
    // Only now, so a regeneration that fails before writing anything leaves the previous reply in place.
    if (job.replaces) await deleteRepliesAfter(tx, conversationId, job.question.id);
    const row = await insertMessage(tx, { conversationId, role: 'assistant', content, status }, at);
    await touchConversation(tx, conversationId, at);
    if (status !== 'failed') await recordBotUse(tx, job.bot.id, at);
    return toMessage(row);
  });
}
