import { CHAT_MESSAGES, type ChatStreamEvent, type Message } from '@shared/contracts/chat';
import { contextWindowOf } from '../../ai/compose-prompt';
import type { DbScope } from '../../db/database';
import { hasRoundTrips, writeAtomically } from '../../db/write-atomically';
import { isoNow } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { ReplyBot } from '../bots/bots.repository';
import { toConversationForReply } from '../bots/sharing.service';
import type { ChatDeps, ReplyDeps } from './chat-deps';
import { requireConversation } from './conversations.service';
import { fileIdsOf, findAttachments, insertMessage, newReply, toMessage, type ContextRow } from './messages.repository';
import { findLastMessage, findMessage } from './branches.repository';
import { saveUserMessage, type NewUserMessage } from './messages.service';
import { findReplyConversation } from './reply-conversation.repository';
import {
  startWriting,
  unsavedQuestion,
  writeReply,
  type ReplyJob,
  type ReplyOutcome,
  type Writing,
} from './reply-writing';

export async function stopReply(deps: ChatDeps, userId: number, conversationId: number) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  const stopped = await deps.replies.stop(conversationId);
  return stopped === 'unreachable' ? { stopped: false, message: CHAT_MESSAGES.stopUnreachable } : { stopped };
}

/**
 * Marks the replies whose instance died as `interrupted` and lets go of what they held: their readers on every
 * instance get `done` with the saved message (shown as interrupted, its text replacing what had streamed), and
 * their conversations take a new message at once.
 */
export async function sweepInterruptedReplies(deps: ChatDeps, staleMs: number) {
  const { marked, freed } = await deps.replyStore.sweep(staleMs);
  await Promise.all(freed.map((conversationId) => deps.replies.release(conversationId)));
  await Promise.all(
    marked.map((row) =>
      deps.replyEvents.interrupt(row.conversation_id, String(row.id), { event: 'done', data: toMessage(row) }),
    ),
  );
  return marked.length;
}

/** The conversation's reply `replyId` when the sweeper marked it interrupted: nothing more will come of it. */
export async function interruptedReply(deps: ChatDeps, conversationId: number, replyId: number) {
  const row = Number.isSafeInteger(replyId) ? await findMessage(deps.db.kysely, replyId) : undefined;
  return row?.conversation_id === conversationId && row.status === 'interrupted' ? toMessage(row) : null;
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

/**
 * Everything that can refuse a reply happens here, before the caller commits to a response: ownership,
 * an inactive bot, a reply already running in the conversation. Then the user message is saved, so it is
 * kept whatever happens to the reply, and the reply's row is created, both in one transaction: this is the
 * path to the reply's first token, and each statement of it is a round trip on PostgreSQL.
 */
export async function beginReply(
  deps: ReplyDeps,
  userId: number,
  /**
   * `visitor`: the widget's anonymous visitor, asking in the owner's name (`userId`). `streamed: false`: the
   * reply is answered whole (/bot-message), so nobody watches it to approve a tool call.
   */
  request: { conversationId: number; botId?: number; target: ReplyTarget; visitor?: boolean; streamed?: boolean },
): Promise<PendingReply> {
  const found = await findReplyConversation(deps.db, userId, request.conversationId, request.botId);
  if (!found) throw notFound('Conversation');
  const { conversation, bot: latest, owner: ownerLimits } = toConversationForReply(found.row);
  // Only the bot's owner chatting in the app gets its latest version and may approve its tools (decision 0038).
  const owner = request.visitor !== true && latest.userId === userId;
  const bot = await deps.publishedVersions.of(latest, owner ? 'owner' : 'others');
  const { recent } = found;
  if (bot.id !== conversation.botId) throw new AppError('BAD_REQUEST', CHAT_MESSAGES.wrongBot);
  if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
  // A shared bot's and the widget's replies count against the bot's owner.
  const admission = await deps.usage.admit({
    ownerId: bot.userId,
    shared: request.visitor === true || bot.userId !== userId,
    owner: ownerLimits,
  });
  const claim = await deps.replies.claim(conversation.id);
  if (!claim) {
    admission.giveBack();
    throw new AppError('CONFLICT', CHAT_MESSAGES.replyRunning);
  }
  let early: Writing | undefined;
  const approvable = owner && request.streamed !== false;
  try {
    const at = isoNow(deps.clock);
    const { target } = request;
    // Where each statement is a round trip (PostgreSQL), the model is asked as soon as the model's memory is
    // read, while the message and the reply's row are saved; the reply's events wait for the save. A message with
    // files is saved first, as its attachments go to the model.
    const startEarly =
      hasRoundTrips(deps.db) && target.kind === 'message' && !target.reuseIfLatest && !target.fileIds?.length
        ? (history: ContextRow[]) => {
            const question = unsavedQuestion(conversation.id, target.content, at);
            early = startWriting(deps, { userId, bot, claim, question, history, approvable });
          }
        : undefined;
    // A new message with its reply's row, or a regenerated reply's row, is one statement on PostgreSQL (a
    // conversation's first message also records its activity, a statement of its own); an edit writes twice.
    const { question, saved, history, replyId } = await writeAtomically(
      deps.db,
      async (scope) => {
        const resolved = await resolveQuestion(scope, at, bot, conversation.id, userId, target, {
          onHistory: startEarly,
          recent,
        });
        const replyId =
          resolved.replyId ??
          (await insertMessage(scope.kysely, newReply(conversation.id, resolved.question.id, bot.version), at)).id;
        return { ...resolved, replyId };
      },
      { oneStatement: target.kind !== 'edit' },
    );
    const job: ReplyJob = {
      userId,
      bot,
      question,
      replaces: target.kind === 'regenerate',
      claim,
      replyId,
      untitled: conversation.titleSource === 'default',
      history,
      approvable,
    };
    return {
      userMessage: saved,
      replyId,
      stop: claim.stop,
      run: (onEvent) => writeReply(deps, job, onEvent, early).finally(claim.release),
    };
  } catch (error) {
    // A model call started early goes unanswered (its end gives the place back).
    if (early) claim.stop();
    else admission.giveBack();
    claim.release();
    throw error;
  }
}

async function resolveQuestion(
  scope: DbScope,
  at: string,
  bot: ReplyBot,
  conversationId: number,
  userId: number,
  target: ReplyTarget,
  read: Pick<NewUserMessage, 'onHistory' | 'recent'>,
): Promise<{ question: Message; saved: Message | null; history?: ContextRow[]; replyId?: number }> {
  const db = scope.kysely;
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
    const { message, replyId } = await saveUserMessage(scope, at, bot, conversationId, {
      userId,
      content: target.content,
      fileIds,
      replaces,
      withReply: true,
    });
    return { question: message, saved: message, replyId };
  }
  const { message, history, replyId } = await saveUserMessage(scope, at, bot, conversationId, {
    userId,
    content: target.content,
    fileIds: target.fileIds,
    contextWindow: contextWindowOf(bot.config),
    withReply: true,
    ...read,
  });
  return { question: message, saved: message, history, replyId };
}
