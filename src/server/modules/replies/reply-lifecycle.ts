import type { MessageStatus } from '@shared/contracts/chat';

/**
 * A reply's life, as its message's `status`: created `streaming` before the model is asked, then ended once,
 * by whoever gets there first — the instance writing it (complete, stopped or failed; interrupted when it shuts
 * down before the reply ends) or, when that instance died, the sweeper of any instance (interrupted). While a tool
 * call waits for the person's approval the reply is `awaiting_approval` (decision 0038): still live (checkpointed,
 * swept only when its instance dies), back to `streaming` once decided, or ended from there by a stop. The table is
 * the whole of it; replies.repository guards every write with the live states, so a late checkpoint or finish never
 * overwrites an ended reply.
 */
export const REPLY_TRANSITIONS = {
  streaming: ['awaiting_approval', 'complete', 'stopped', 'failed', 'interrupted'],
  awaiting_approval: ['streaming', 'stopped', 'failed', 'interrupted'],
  complete: [],
  stopped: [],
  failed: [],
  interrupted: [],
} as const satisfies Record<MessageStatus, readonly MessageStatus[]>;

export type ReplyState = keyof typeof REPLY_TRANSITIONS;
/** The states a reply is written (checkpointed, finished, swept) from: it is being written, or waits for approval. */
export const LIVE_REPLY_STATES = ['streaming', 'awaiting_approval'] as const satisfies readonly ReplyState[];
/** How a reply ends. */
export type ReplyEnd = Exclude<(typeof REPLY_TRANSITIONS)['streaming'][number], 'awaiting_approval'>;
export const isLiveReply = (status: string) => (LIVE_REPLY_STATES as readonly string[]).includes(status);

/**
 * The abort reason of replies stopped because their instance shuts down (the registry's stopAll after the drain):
 * they end `interrupted`, which offers Retry, not `stopped`, which says the person stopped them.
 */
export const SHUTDOWN_REASON = 'the instance is shutting down';

export const canTransition = (from: ReplyState, to: ReplyState): boolean =>
  (REPLY_TRANSITIONS[from] as readonly ReplyState[]).includes(to);

/**
 * The end of a reply its writer saw: a failure wins over a stop (the user is told what went wrong even when they
 * pressed Stop meanwhile); a stop for the instance's shutdown is an interruption.
 */
export function endOf(outcome: { error: string | null; signal: AbortSignal }): ReplyEnd {
  if (outcome.error) return 'failed';
  if (!outcome.signal.aborted) return 'complete';
  return outcome.signal.reason === SHUTDOWN_REASON ? 'interrupted' : 'stopped';
}
