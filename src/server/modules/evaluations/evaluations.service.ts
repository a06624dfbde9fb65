import type { FastifyBaseLogger } from 'fastify';
import type {
  Evaluation,
  EvaluationEvent,
  EvaluationResult,
  EvaluationSummary,
  RunEvaluationBody,
} from '@shared/contracts/evaluations';
import { EVALUATION_MESSAGES } from '@shared/contracts/evaluations';
import type { Ai, Model } from '../../ai/providers';
import { ChatReplyError, CHAT_ERRORS } from '../../ai/tasks/chat-reply';
import { judgeAnswer } from '../../ai/tasks/judge-answer';
import type { Db, Executor } from '../../db/database';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { snapshotOf } from '../bots/bot-snapshot';
import { requireOwnedBot } from '../bots/bots.service';
import { getVersion } from '../bots/versions.service';
import type { ReplyingBot } from '../replies/reply-context';
import type { ReplyPipelineDeps } from '../replies/reply-pipeline';
import { answerQuery } from '../training/training.service';
import {
  deleteEvaluation,
  findEvaluation,
  findEvaluations,
  finishEvaluation,
  insertEvaluation,
  insertResult,
  isAlreadyRunning,
  markStaleEvaluations,
} from './evaluations.repository';

export interface EvaluationsDeps extends ReplyPipelineDeps {
  db: Db;
  clock: Clock;
}

/** Longer than one answer and one verdict can take, so only a dead instance's evaluation looks stale. */
export const EVALUATION_STALE_MS = 10 * 60_000;

/** Model calls an evaluation makes per query: the answer and the judge's verdict. */
export const CALLS_PER_QUERY = 2;

const JUDGE_FAILED = 'The judge could not give a verdict.';

export interface StartedEvaluation {
  evaluation: EvaluationSummary;
  /** Answers and judges each query, sending each result; stops early (cancelled) when `signal` aborts. */
  run(signal: AbortSignal, send: (event: EvaluationEvent) => void, log: FastifyBaseLogger): Promise<void>;
  /** Removes the evaluation before it ran (e.g. it did not fit the model-call limit). */
  abandon(): Promise<void>;
}

/**
 * Starts an evaluation of `body.version` (the current version when left out) on the bot's test set, its
 * current example queries, so runs on different versions answer the same questions. Refused offline, with an
 * empty test set, and while another evaluation of the bot runs.
 */
export async function startEvaluation(
  deps: EvaluationsDeps,
  userId: number,
  botId: number,
  body: RunEvaluationBody,
): Promise<StartedEvaluation> {
  const db = deps.db.kysely;
  const bot = await requireOwnedBot(db, userId, botId);
  const version = body.version ?? bot.version;
  const snapshot =
    version === bot.version ? snapshotOf(bot) : (await getVersion(deps, userId, botId, version)).snapshot;
  // The version's settings with the bot's knowledge files, which are not versioned: what the chat would answer.
  const answering: ReplyingBot = { ...snapshot, id: bot.id, userId: bot.userId };
  // The answers come from the bot's own model (the pipeline resolves it); the verdicts from the judge's default.
  const judge = (await deps.models.resolve('judge')).ai;
  const { model } = judge;
  if (!model) throw new AppError('UNAVAILABLE', EVALUATION_MESSAGES.offline);
  const queries = bot.exampleQueries;
  if (queries.length === 0) throw new AppError('BAD_REQUEST', EVALUATION_MESSAGES.noTestSet);
  const admission = await deps.usage.admit({ ownerId: userId, shared: false });

  await markStaleEvaluations(db, botId, isoIn(deps.clock, -EVALUATION_STALE_MS));
  let evaluation: EvaluationSummary;
  try {
    evaluation = await insertEvaluation(db, { botId, version, total: queries.length }, isoNow(deps.clock));
  } catch (error) {
    admission.giveBack();
    if (isAlreadyRunning(error)) throw new AppError('CONFLICT', EVALUATION_MESSAGES.running);
    throw error;
  }
  const expectations = new Map(bot.testNotes.map((note) => [note.query, note.expected]));

  return {
    evaluation,
    abandon: () => {
      admission.giveBack();
      return deleteEvaluation(db, evaluation.id);
    },
    async run(signal, send, log) {
      send({ type: 'started', evaluation });
      for (const [index, query] of queries.entries()) {
        if (signal.aborted) break;
        const result = await evaluateQuery(
          { ...deps, judge: { ...judge, model }, log },
          answering,
          { index, query, expectation: expectations.get(query) },
          signal,
        );
        if (signal.aborted) break;
        await insertResult(db, evaluation.id, result, isoNow(deps.clock));
        send({ type: 'result', result });
      }
      const status = signal.aborted ? 'cancelled' : 'done';
      send({ type: 'done', evaluation: await finishEvaluation(db, evaluation.id, status, isoNow(deps.clock)) });
    },
  };
}

async function evaluateQuery(
  deps: EvaluationsDeps & { judge: Ai & { model: Model }; log: FastifyBaseLogger },
  bot: ReplyingBot,
  { index, query, expectation }: { index: number; query: string; expectation: string | undefined },
  signal: AbortSignal,
): Promise<EvaluationResult> {
  const none = { index, query, answer: null, verdict: null, reason: null };
  let answered: Awaited<ReturnType<typeof answerQuery>>;
  try {
    answered = await answerQuery(deps, bot, query, signal);
  } catch (error) {
    return { ...none, error: error instanceof ChatReplyError ? error.message : CHAT_ERRORS.unknown };
  }
  const { answer, sources } = answered;
  try {
    const { verdict, reason } = await judgeAnswer(deps.judge, { bot, query, answer, sources, expectation }, signal);
    return { index, query, answer, verdict, reason, error: null };
  } catch {
    return { ...none, answer, error: JUDGE_FAILED };
  }
}

/** The bot's finished test runs, newest first, whoever asks (the caller checked the bot is theirs). */
export const finishedEvaluationsOf = (db: Executor, botId: number) => findEvaluations(db, botId, { finished: true });

export async function listEvaluations(deps: EvaluationsDeps, userId: number, botId: number) {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return findEvaluations(deps.db.kysely, botId);
}

export async function getEvaluation(
  deps: EvaluationsDeps,
  userId: number,
  botId: number,
  id: number,
): Promise<Evaluation> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  const evaluation = await findEvaluation(deps.db.kysely, botId, id);
  if (!evaluation) throw new AppError('NOT_FOUND', EVALUATION_MESSAGES.notFound);
  return evaluation;
}
