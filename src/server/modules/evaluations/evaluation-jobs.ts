import type { FastifyBaseLogger } from 'fastify';
import type { EvaluationSummary } from '@shared/contracts/evaluations';
import { EVALUATION_MESSAGES } from '@shared/contracts/evaluations';
import type { Executor } from '../../db/database';
import { isoIn, isoNow } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireOwnedBot } from '../bots/bots.service';
import { getVersion } from '../bots/versions.service';
import { readTestSet } from '../test-cases/test-set';
import {
  claimNextEvaluation,
  findEnded,
  findEvaluations,
  findResults,
  finishEvaluation,
  insertEvaluation,
  insertResult,
  isAlreadyRunning,
  releaseEvaluation,
  renewLease,
  type EvaluationJob,
} from './evaluations.repository';
import { CALLS_PER_QUERY, evaluateQuery, evaluatedBot, judgeOf, type EvaluationsDeps } from './evaluations.service';
import { jobLoop } from '../../lib/job-loop';

/**
 * Queues a run of the bot's test set on `version` and returns it at once (status `queued`); whichever instance
 * claims it runs it. Refused offline (503), with an empty test set (400), for a version the bot never had (404),
 * while another evaluation of the bot is queued or running (409), and past the owner's daily limit (429).
 * `countCalls` counts the calls the run will make against a per-minute limit before anything is stored.
 */
export async function queueEvaluation(
  deps: EvaluationsDeps,
  input: {
    ownerId: number;
    botId: number;
    version: number;
    releaseId?: number | null;
    countCalls?: (calls: number) => Promise<void>;
  },
): Promise<EvaluationSummary> {
  const db = deps.db.kysely;
  const bot = await requireOwnedBot(db, input.ownerId, input.botId);
  if (input.version !== bot.version) await getVersion(deps, input.ownerId, bot.id, input.version);
  await judgeOf(deps);
  const questions = (await readTestSet(db, bot.id)).map(({ id, query, expected }) => ({ id, query, expected }));
  if (questions.length === 0) throw new AppError('BAD_REQUEST', EVALUATION_MESSAGES.noTestSet);
  // Counted up front, so a run never stops half-way for a limit; the daily limit's place is only a check here.
  await input.countCalls?.(questions.length * CALLS_PER_QUERY);
  const admission = await deps.usage.admit({ ownerId: input.ownerId, shared: false });
  admission.giveBack();
  try {
    const queued = await insertEvaluation(
      db,
      { botId: bot.id, version: input.version, questions, releaseId: input.releaseId ?? null },
      isoNow(deps.clock),
    );
    deps.signals.queued();
    return queued;
  } catch (error) {
    if (isAlreadyRunning(error)) throw new AppError('CONFLICT', EVALUATION_MESSAGES.running);
    throw error;
  }
}

/** The newest finished (`done`) evaluation of the bot's `version`, or undefined. */
export async function latestFinishedEvaluation(
  db: Executor,
  botId: number,
  version: number,
): Promise<EvaluationSummary | undefined> {
  const [latest] = await findEvaluations(db, botId, { finished: true, version });
  return latest;
}

export interface EvaluationJobsOptions {
  /** How often an idle runner looks for runs queued on another instance (or left by a dead one). */
  pollMs: number;
  /** How long a claim holds without being renewed: past it, another instance resumes the run. */
  leaseMs: number;
  /** How often the runner renews its lease, and so notices a cancel made on another instance. */
  heartbeatMs: number;
  /** Runs at a time on one instance, so one long test set does not hold up every other bot's. */
  concurrency: number;
}

export const DEFAULT_EVALUATION_JOBS: EvaluationJobsOptions = {
  pollMs: 5_000,
  leaseMs: 60_000,
  heartbeatMs: 5_000,
  concurrency: 3,
};

/**
 * Runs queued evaluations off the request path (a few at a time), like the file job runner: claims the oldest (a
 * lease, renewed every `heartbeatMs`), answers and judges each question not stored yet, and stores each result as
 * it comes. A cancel (here or on another instance) stops it before the next question; stopping the app gives the
 * run back so the next start, or another instance, resumes it at once.
 */
export function createEvaluationJobs(
  deps: EvaluationsDeps & { log: FastifyBaseLogger },
  options: EvaluationJobsOptions = DEFAULT_EVALUATION_JOBS,
) {
  const { db, clock, log } = deps;
  const inFlight = new Set<Promise<void>>();

  /**
   * Holds the lease while the run goes; `lost` aborts once the run is not ours any more (cancelled, taken over).
   * Renewed every `heartbeatMs`, before each question (`check`) and at once when a cancel is heard here.
   */
  function holdLease(job: EvaluationJob, lease: string) {
    const lost = new AbortController();
    let current = lease;
    let renewing: Promise<unknown> = Promise.resolve();
    const renew = () => {
      renewing = renewing
        .then(async () => {
          if (lost.signal.aborted) return;
          const next = isoIn(clock, options.leaseMs);
          if (await renewLease(db.kysely, job.id, current, next, isoNow(clock))) current = next;
          else lost.abort();
        })
        .catch((err: unknown) => log.warn({ err, evaluationId: job.id }, 'could not renew an evaluation’s lease'));
      return renewing;
    };
    const timer = setInterval(renew, options.heartbeatMs);
    const unsubscribe = deps.signals.onCancelled(job.id, () => void renew());
    return {
      lost: lost.signal,
      check: renew,
      /** Stops renewing; the lease as it stands after the last renewal. */
      async end() {
        clearInterval(timer);
        unsubscribe();
        await renewing;
        return current;
      },
    };
  }

  /** Tells the watchers, and `evaluationFinished` when the run ended (as `only`, when given). */
  async function ended(id: number, only?: EvaluationSummary['status']) {
    deps.signals.changed(id);
    const evaluation = await findEnded(db.kysely, id);
    if (!evaluation || evaluation.status === 'running' || (only && evaluation.status !== only)) return;
    await deps.evaluationFinished?.(evaluation);
  }

  async function process(job: EvaluationJob, lease: string) {
    const held = holdLease(job, lease);
    const signal = AbortSignal.any([jobs.signal, held.lost]);
    // How the run ended; null when it was stopped or lost before its end.
    let outcome: 'done' | 'failed' | null = null;
    try {
      const bot = await evaluatedBot(deps, job.botId, job.version);
      const judge = await judgeOf(deps);
      const stored = new Set((await findResults(db.kysely, job.id)).map((r) => r.index));
      for (const [index, question] of job.questions.entries()) {
        if (stored.has(index)) continue;
        await held.check();
        if (signal.aborted) break;
        const result = await evaluateQuery({ ...deps, judge }, bot, { index, ...question }, signal);
        if (signal.aborted) break;
        if (!(await insertResult(db.kysely, job.id, result))) break;
        deps.signals.changed(job.id);
      }
      if (!signal.aborted) outcome = 'done';
    } catch (err) {
      if (!signal.aborted) {
        log.error({ err, evaluationId: job.id }, 'evaluation failed');
        outcome = 'failed';
      }
    }
    const last = await held.end();
    const ours = !held.lost.aborted;
    if (outcome && ours && (await finishEvaluation(db.kysely, job.id, last, outcome, isoNow(clock)))) {
      return ended(job.id);
    }
    // Stopping: given back, so the next start or another instance resumes it at once.
    if (!outcome && ours && jobs.signal.aborted) return void (await releaseEvaluation(db.kysely, job.id, last));
    // Not ours to end any more. A cancel is told here (cancelling a running run leaves that to its runner); a run
    // another instance took over is told by that instance.
    await ended(job.id, 'cancelled');
  }

  /** Claims runs while there is room; each goes on its own and makes room again when it ends. */
  async function fill() {
    while (jobs.running && inFlight.size < options.concurrency) {
      const lease = isoIn(clock, options.leaseMs);
      const job = await claimNextEvaluation(db, isoNow(clock), lease);
      if (!job) return;
      deps.signals.changed(job.id);
      const going = process(job, lease)
        .catch((err: unknown) => log.error({ err, evaluationId: job.id }, 'evaluation job failed'))
        .finally(() => {
          inFlight.delete(going);
          wake();
        });
      inFlight.add(going);
    }
  }

  const jobs = jobLoop({ pollMs: options.pollMs, log, what: 'evaluation runner', pass: fill });
  const { wake } = jobs;
  let unsubscribe = () => {};

  return {
    /** Resumes runs left by an earlier start, then waits for work. */
    start() {
      if (jobs.start()) unsubscribe = deps.signals.onQueued(wake);
    },
    /** Stops after giving the run in hand back, so it resumes at once elsewhere. */
    async stop() {
      unsubscribe();
      await jobs.stop();
      await Promise.all(inFlight);
    },
  };
}
