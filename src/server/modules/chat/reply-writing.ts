import { CHAT_MESSAGES, type ChatStreamEvent, type Message, type ReplyStep } from '@shared/contracts/chat';
import { contextWindowOf } from '../../ai/compose-prompt';
import { conversationTitleFor } from '../../ai/tasks/conversation-title';
import { CHAT_ERRORS } from '../../ai/tasks/chat-reply';
import { isoNow } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { ReplyBot } from '../bots/bots.repository';
import { endOf } from '../replies/reply-lifecycle';
import { runReply, type ReplyResult } from '../replies/reply-pipeline';
import type { ReplyClaim } from '../replies/reply-registry';
import type { ReplyDeps } from './chat-deps';
import { findOwnedConversation, findReplyOwners, setAutomaticTitle } from './conversations.repository';
import { findVersions, toMessage, type ContextRow } from './messages.repository';
import { findContextMessages } from './branches.repository';
import { checkReplySupport, inBackground } from './reply-support';
import { toolApprover } from './tool-approvals.service';

/** A reply in a conversation, its row saved (`streaming`) and its conversation claimed. */
export interface ReplyJob {
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
  /** The model's memory of the conversation, when it was read with the question (else it is read here). */
  history?: ContextRow[];
  /**
   * The person chatting may approve the bot's tool calls: their own bot, in their own chat, watching it stream.
   * Not a widget visitor, someone else's bot (a shared link) or the non-streaming /bot-message (decision 0038).
   */
  approvable?: boolean;
}

export type ReplyOutcome =
  | { status: 'complete' | 'stopped'; message: Message | null }
  | { status: 'failed'; error: string; message: Message | null };

/** What the model part of a reply needs: the question need not be saved yet (see beginReply). */
type WritingJob = Pick<ReplyJob, 'userId' | 'bot' | 'question' | 'claim' | 'history' | 'approvable'>;

/** The model's part of a reply, under way; its events wait until someone attaches to them. */
export interface Writing {
  text(): string;
  /** Hands the events so far, then each as it comes, to `onEvent`; the reply's row `replyId` is saved by now. */
  attach(replyId: number, onEvent: (event: ChatStreamEvent) => void): void;
  /** Never rejects. */
  done: Promise<ReplyResult>;
}

/** A question that is being saved: what the model and the context providers read of it. */
export const unsavedQuestion = (conversationId: number, content: string, at: string): Message => ({
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

/** Runs the reply pipeline for a conversation's question, collecting the reply's text and holding its events. */
export function startWriting(deps: ReplyDeps, job: WritingJob): Writing {
  const { bot, question, claim } = job;
  let text = '';
  const steps: ReplyStep[] = [];
  let onEvent: ((event: ChatStreamEvent) => void) | null = null;
  const waiting: ChatStreamEvent[] = [];
  let saved: (replyId: number) => void = () => {};
  const forward = (event: ChatStreamEvent) => (onEvent ? onEvent(event) : waiting.push(event));
  // Steps waiting for an approval, held back until their call can be answered (see ApprovingReply.reveal).
  const held = new Map<string, ChatStreamEvent>();
  const approve =
    job.approvable && question.conversationId
      ? toolApprover(deps, {
          conversationId: question.conversationId,
          replyId: new Promise<number>((resolve) => (saved = resolve)),
          text: () => text,
          steps: () => steps,
          reveal(callId, show) {
            const event = held.get(callId);
            held.delete(callId);
            if (event && show) forward(event);
          },
        })
      : undefined;
  const done = (async () => {
    const history =
      job.history ??
      (await findContextMessages(deps.db.kysely, question.conversationId, question.id, contextWindowOf(bot.config)));
    return runReply(
      deps,
      { userId: job.userId, bot, question, history, signal: claim.signal, log: deps.log, approve },
      (event) => {
        if (event.event === 'delta') text += event.data.text;
        // The steps as the client has them, saved with the reply when it waits for an approval.
        if (event.event === 'step') {
          const { index, ...step } = event.data;
          steps[index] = step;
          if (approve && step.status === 'awaiting_approval' && step.callId) return void held.set(step.callId, event);
        }
        forward(event);
      },
    );
  })().catch((err: unknown): ReplyResult => {
    deps.log.error({ err }, 'chat reply failed');
    return {
      text,
      error: CHAT_ERRORS.unknown,
      usage: { inputTokens: null, outputTokens: null },
      sources: [],
      steps: [],
      firstTokenMs: null,
      replyMs: 0,
      model: null,
    };
  });
  return {
    text: () => text,
    attach(replyId, to) {
      saved(replyId);
      onEvent = to;
      for (const event of waiting.splice(0)) to(event);
    },
    done,
  };
}

/**
 * The reply's life on this instance: `start`, the pipeline's events, checkpoints while it is written, then its
 * end (reply-lifecycle.ts) saved once — `complete`, `stopped` with the part written before the stop, or `failed`
 * with the part written before the failure; a reply without text has its row removed (`message` null).
 */
export async function writeReply(
  deps: ReplyDeps,
  job: ReplyJob,
  onEvent: (event: ChatStreamEvent) => void,
  writing = startWriting(deps, job),
): Promise<ReplyOutcome> {
  onEvent({ event: 'start', data: { messageId: job.replyId } });
  writing.attach(job.replyId, onEvent);
  const stopCheckpoints = deps.replyStore.track(job.replyId, writing.text);
  const written = await writing.done;
  await stopCheckpoints();
  let { error } = written;
  const status = endOf({ error, signal: job.claim.signal });
  let message: Message | null = null;
  const at = isoNow(deps.clock);
  try {
    const row = await deps.replyStore.finish({
      id: job.replyId,
      now: at,
      conversationId: job.question.conversationId,
      replacesRepliesTo: job.replaces ? job.question.id : null,
      reply: {
        content: writing.text(),
        status,
        sources: written.sources,
        steps: written.steps,
        ...written.usage,
        firstTokenMs: written.firstTokenMs,
        replyMs: written.replyMs,
        model: written.model,
      },
    });
    if (row === undefined) throw notFound('Message');
    // A regenerated reply comes with its versions (the replies it took the place of), for its switcher.
    const versions = row && job.replaces ? await findVersions(deps.db.kysely, row.conversation_id, [row]) : undefined;
    message = row && toMessage(row, undefined, versions);
    if (message && status !== 'failed') deps.usage.countUse(job.bot.id, at, deps.log);
  } catch (err) {
    // E.g. the conversation was deleted while its reply was being written.
    deps.log.warn({ err, conversationId: job.question.conversationId }, 'chat reply: could not save the reply');
    error = (await whatWasDeleted(deps, job)) ?? error ?? CHAT_ERRORS.unknown;
  }
  if (message?.status === 'complete' && job.untitled) nameConversation(deps, job, message.content);
  // An offline reply is Botty's own note listing the sources, not an answer to check.
  if (message && status !== 'failed' && written.model !== null) checkReplySupport(deps, message);
  return error
    ? { status: 'failed', error, message }
    : { status: status === 'complete' ? 'complete' : 'stopped', message };
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
  inBackground(
    deps,
    async () => {
      const db = deps.db.kysely;
      const conversation = await findOwnedConversation(db, job.userId, job.question.conversationId);
      if (conversation?.title_source !== 'default') return;
      const { ai } = await deps.models.resolve('titles');
      const title = await conversationTitleFor({ ai, log: deps.log }, { question: job.question.content, reply });
      await setAutomaticTitle(db, conversation.id, title);
    },
    'conversation title: could not name the conversation',
  );
}
