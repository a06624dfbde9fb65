import { EventEmitter } from 'node:events';
import { isEvaluationActive, type EvaluationEvent } from '@shared/contracts/evaluations';
import type { Executor } from '../../db/database';
import type { InstanceNotices } from '../../lib/instance-notices';
import { findResults, findSummary } from './evaluations.repository';

/**
 * Within one instance: "evaluation N changed" (a result stored, a run ended or cancelled) and "N was cancelled",
 * so watchers and the runner here react at once. Across instances the database is the truth: watchers read it
 * again every `pollMs` whatever they hear, so a run on another instance is followed with at most that delay.
 * "A run was queued" reaches every instance's runner (decision 0051), which also polls.
 */
export function evaluationSignals(notices: InstanceNotices) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    changed: (id: number) => emitter.emit(`changed:${id}`),
    cancelled(id: number) {
      emitter.emit(`cancelled:${id}`);
      emitter.emit(`changed:${id}`);
    },
    onCancelled(id: number, listener: () => void) {
      emitter.on(`cancelled:${id}`, listener);
      return () => emitter.off(`cancelled:${id}`, listener);
    },
    queued: () => void notices.tell('evaluation-queued'),
    onQueued: (listener: () => void) => notices.on('evaluation-queued', listener),
    /** Resolves at the next change of `id`, after `ms`, or when `signal` aborts, whichever comes first. */
    next(id: number, ms: number, signal: AbortSignal) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          emitter.off(`changed:${id}`, done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        emitter.once(`changed:${id}`, done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}

export type EvaluationSignals = ReturnType<typeof evaluationSignals>;

/** How often a watcher reads the run again when nothing was heard here (it may run on another instance). */
export const EVALUATION_POLL_MS = 1_000;

/**
 * An evaluation's events for whoever watches, on any instance: `started` with the run as it is, the results
 * stored already, then each new one as it is stored, and `done` once the run ended. Ends early when `signal`
 * aborts (the watcher left); the run goes on.
 */
export async function* followEvaluation(
  db: Executor,
  signals: EvaluationSignals,
  id: number,
  signal: AbortSignal,
  pollMs = EVALUATION_POLL_MS,
): AsyncGenerator<EvaluationEvent> {
  const evaluation = await findSummary(db, id);
  if (!evaluation) return;
  yield { type: 'started', evaluation };
  let last = -1;
  while (!signal.aborted) {
    // Read before the results: a run seen ended has all its results stored.
    const now = await findSummary(db, id);
    for (const result of await findResults(db, id, last)) {
      last = result.index;
      yield { type: 'result', result };
    }
    if (!now || !isEvaluationActive(now.status)) {
      if (now) yield { type: 'done', evaluation: now };
      return;
    }
    await signals.next(id, pollMs, signal);
  }
}
