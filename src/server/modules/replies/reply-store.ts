import type { FastifyBaseLogger } from 'fastify';
import type { ReplyStep } from '@shared/contracts/chat';
import type { Db } from '../../db/database';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { batchPerTurn } from '../../lib/turn-batch';
import type { MessageRow } from '../chat/messages.repository';
import {
  awaitApproval,
  checkpointReplies,
  conversationsWithLiveReplies,
  finishReplies,
  markStaleRepliesInterrupted,
  resumeAfterApproval,
  type FinishedReply,
  type ReplyToFinish,
} from './replies.repository';

/** How often a reply's text so far is saved: a crash loses at most this much of it. */
export const REPLY_CHECKPOINT_MS = 1_000;

/**
 * How the sweeper runs so that a dead instance's reply is marked interrupted within `staleMs` of its last
 * checkpoint (issue 27): every quarter of it, marking replies silent for the other three quarters. A live reply
 * is checkpointed every REPLY_CHECKPOINT_MS, so the threshold never goes below twice that (or `staleMs` when that
 * is smaller): with a tiny `staleMs` the bound becomes 1.25 × `staleMs`, never a live reply taken for dead.
 */
export function sweepSchedule(staleMs: number, checkpointMs = REPLY_CHECKPOINT_MS) {
  const everyMs = Math.ceil(staleMs / 4);
  return { everyMs, silentForMs: Math.max(staleMs - everyMs, Math.min(staleMs, 2 * checkpointMs)) };
}

export interface ReplyStoreDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** REPLY_CHECKPOINT_MS unless a test wants another rhythm. */
  checkpointMs?: number;
  /** Told of every reply that ends (the metrics). */
  observe?: {
    finished(reply: FinishedReply): void;
    interrupted(count: number): void;
  };
}

/** What the instance writing a reply saves of it, from its `streaming` row to its end (reply-lifecycle.ts). */
export interface ReplyStore {
  /**
   * Saves the reply's text so far every checkpointMs, with the replies this instance writes in one round of writes,
   * and refreshes its checkpoint time even when no text came (a long research step), so other instances can tell a
   * live reply from a dead one. The returned function ends that, after any round under way.
   */
  track(replyId: number, textSoFar: () => string): () => Promise<void>;
  /**
   * The reply waits for the person's answer to a tool call (`awaiting_approval`), its text and steps so far saved;
   * it stays tracked, so its checkpoints go on and no sweeper takes it for dead while it waits.
   */
  pause(replyId: number, reply: { content: string; steps: readonly ReplyStep[] }): Promise<void>;
  /** Back to `streaming` once the call is decided. */
  resume(replyId: number): Promise<void>;
  /** One round of checkpoints now, as the timer runs it. */
  checkpoint(): Promise<void>;
  /**
   * Ends the reply (finishReplies): replies that end in the same turn of the event loop share one commit (under
   * load many end together, and a commit costs more than its statements). A failed group is saved again reply by
   * reply, so one reply's failure stays its own.
   */
  finish(reply: ReplyToFinish): Promise<MessageRow | null | undefined>;
  /**
   * Marks replies whose instance died mid-reply as `interrupted`; they keep what had streamed. `staleMs` (see
   * CHAT_STALE_REPLY_MS) must stay well above the checkpoint interval, or live replies would be taken for dead.
   * Returns the marked rows, and which of their conversations have no other reply being written (a new reply
   * may have claimed one since its lock expired): those are free for a new message.
   */
  sweep(staleMs: number): Promise<{ marked: MessageRow[]; freed: number[] }>;
  /** Stops the checkpoint timer, after the round under way. */
  close(): Promise<void>;
}

interface Tracked {
  replyId: number;
  textSoFar: () => string;
  /** The text last written; the row starts empty. */
  saved: string;
}

interface PendingFinish {
  reply: ReplyToFinish;
  resolve: (row: MessageRow | null | undefined) => void;
  reject: (error: unknown) => void;
}

/** One per app instance: its timer and queues are its own, so apps in one process (tests) never share them. */
export function createReplyStore(deps: ReplyStoreDeps): ReplyStore {
  const { db, clock, log } = deps;
  const tracked = new Set<Tracked>();
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();

  async function checkpointRound() {
    if (!tracked.size) return;
    const texts = [...tracked].map((t) => ({ t, text: t.textSoFar() }));
    try {
      const replies = texts.map(({ t, text }) => ({ id: t.replyId, content: text === t.saved ? null : text }));
      await checkpointReplies(db, replies, isoNow(clock));
      for (const { t, text } of texts) t.saved = text;
    } catch (err) {
      log.warn({ err, replies: texts.length }, 'chat reply: checkpoint failed');
    }
  }
  const checkpoint = () => (round = round.then(checkpointRound));

  const settle = (pending: PendingFinish, result: MessageRow | null | undefined) => pending.resolve(result);
  async function finishGroup(group: PendingFinish[]) {
    try {
      const rows = await finishReplies(
        db,
        group.map((p) => p.reply),
      );
      group.forEach((pending, i) => settle(pending, rows[i]));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const pending of group) {
        finishReplies(db, [pending.reply]).then(([row]) => settle(pending, row), pending.reject);
      }
    }
  }
  const queueFinish = batchPerTurn<'finish', PendingFinish>((_, group) => void finishGroup(group));

  return {
    track(replyId, textSoFar) {
      const entry: Tracked = { replyId, textSoFar, saved: '' };
      tracked.add(entry);
      if (!timer) {
        timer = setInterval(checkpoint, deps.checkpointMs ?? REPLY_CHECKPOINT_MS);
        timer.unref();
      }
      return async () => {
        tracked.delete(entry);
        if (!tracked.size) {
          clearInterval(timer);
          timer = undefined;
        }
        await round;
      };
    },
    async pause(replyId, reply) {
      await awaitApproval(db.kysely, { id: replyId, ...reply, now: isoNow(clock) });
    },
    async resume(replyId) {
      await resumeAfterApproval(db.kysely, replyId, isoNow(clock));
    },
    checkpoint,
    async finish(reply) {
      const row = await new Promise<MessageRow | null | undefined>((resolve, reject) =>
        queueFinish('finish', { reply, resolve, reject }),
      );
      // Undefined: the sweeper ended it first, and counted it.
      if (row !== undefined) deps.observe?.finished(reply.reply);
      return row;
    },
    async sweep(staleMs) {
      const marked = await markStaleRepliesInterrupted(db.kysely, isoIn(clock, -staleMs));
      deps.observe?.interrupted(marked.length);
      const conversations = [...new Set(marked.map((row) => row.conversation_id))];
      const live = await conversationsWithLiveReplies(db.kysely, conversations);
      return { marked, freed: conversations.filter((id) => !live.has(id)) };
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
      await round;
    },
  };
}
