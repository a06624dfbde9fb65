import type { MessageStatus } from '@shared/contracts/chat';

/**
 * A reply's life, as its message's `status`: created `streaming` before the model is asked, then ended once,
 * by whoever gets there first — the instance writing it (complete, stopped or failed) or, when that instance
 * died, the sweeper of any instance (interrupted). The table is the whole of it; replies.repository guards
 * every write with `status = 'streaming'`, so a late checkpoint or finish never overwrites an ended reply.
 */
export const REPLY_TRANSITIONS = {
  streaming: ['complete', 'stopped', 'failed', 'interrupted'],
  complete: [],
  stopped: [],
  failed: [],
  interrupted: [],
} as const satisfies Record<MessageStatus, readonly MessageStatus[]>;

export type ReplyState = keyof typeof REPLY_TRANSITIONS;
/** The one state a reply is written (checkpointed, finished, swept) from. */
export const LIVE_REPLY_STATE = 'streaming' satisfies ReplyState;
/** How the instance writing a reply ends it; `interrupted` is the sweeper's. */
export type ReplyEnd = Exclude<(typeof REPLY_TRANSITIONS)['streaming'][number], 'interrupted'>;

export const canTransition = (from: ReplyState, to: ReplyState): boolean =>
  (REPLY_TRANSITIONS[from] as readonly ReplyState[]).includes(to);

/** A failure wins over a stop: the user is told what went wrong even when they pressed Stop meanwhile. */
export const endOf = (outcome: { error: string | null; stopped: boolean }): ReplyEnd =>
  outcome.error ? 'failed' : outcome.stopped ? 'stopped' : 'complete';
