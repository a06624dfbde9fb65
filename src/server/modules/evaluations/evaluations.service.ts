import type { FastifyBaseLogger } from 'fastify';
import type {
  Evaluation,
  EvaluationComparison,
  EvaluationResult,
  EvaluationSummary,
} from '@shared/contracts/evaluations';
import { EVALUATION_MESSAGES } from '@shared/contracts/evaluations';
import { compareEvaluations, verdictSentence } from '@shared/evaluations/compare';
import type { Ai, Model } from '../../ai/providers';
import { ChatReplyError, CHAT_ERRORS } from '../../ai/tasks/chat-reply';
import { checkSupport, faithfulnessOf, type SupportCase } from '../../ai/tasks/check-support';
import { judgeAnswer } from '../../ai/tasks/judge-answer';
import type { Db, Executor } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { snapshotOf } from '../bots/bot-snapshot';
import { requireOwnedBot } from '../bots/bots.service';
import { getVersion } from '../bots/versions.service';
import type { ReplyingBot } from '../replies/reply-context';
import type { ReplyPipelineDeps } from '../replies/reply-pipeline';
import { answerQuery } from '../training/training.service';
import type { EvaluationSignals } from './evaluation-events';
import { cancelEvaluation, findEnded, findEvaluation, findEvaluations } from './evaluations.repository';

export interface EvaluationsDeps extends ReplyPipelineDeps {
  db: Db;
  clock: Clock;
  signals: EvaluationSignals;
  /** Told when a run ended (done, cancelled or failed), on whichever instance ran it (the releases' gate). */
  evaluationFinished?: (evaluation: EvaluationSummary & { releaseId: number | null }) => Promise<void> | void;
}

/** Model calls an evaluation makes per query: the answer and the judge's verdict. */
export const CALLS_PER_QUERY = 2;

const JUDGE_FAILED = 'The judge could not give a verdict.';

/** The judge's model (the configured default for judging); 503 offline. */
export async function judgeOf(deps: EvaluationsDeps): Promise<Ai & { model: Model }> {
  const judge = (await deps.models.resolve('judge')).ai;
  const { model } = judge;
  if (!model) throw new AppError('UNAVAILABLE', EVALUATION_MESSAGES.offline);
  return { ...judge, model };
}

/**
 * The version's settings with the bot's knowledge files, which are not versioned: what the chat would answer.
 * The answers come from the version's own model (the pipeline resolves it).
 */
export async function evaluatedBot(
  deps: Pick<EvaluationsDeps, 'db' | 'clock'>,
  botId: number,
  version: number,
): Promise<ReplyingBot> {
  const db = deps.db.kysely;
  const owner = await db.selectFrom('bots').select('user_id').where('id', '=', botId).executeTakeFirst();
  if (!owner) throw new AppError('NOT_FOUND', 'Bot not found');
  const bot = await requireOwnedBot(db, owner.user_id, botId);
  const snapshot =
    version === bot.version ? snapshotOf(bot) : (await getVersion(deps, bot.userId, botId, version)).snapshot;
  return { ...snapshot, id: bot.id, userId: bot.userId };
}

/**
 * One question answered and judged. No answer: no verdict, with why. An answer the judge could not grade is
 * `judge_unavailable`, neither pass nor fail.
 */
export async function evaluateQuery(
  deps: EvaluationsDeps & { judge: Ai & { model: Model }; log: FastifyBaseLogger },
  bot: ReplyingBot,
  question: { index: number; id: number; query: string; expected: string | null },
  signal: AbortSignal,
): Promise<EvaluationResult> {
  const { index, id, query, expected } = question;
  const none = {
    index,
    testCaseId: id,
    query,
    answer: null,
    verdict: null,
    score: null,
    reason: null,
    faithfulness: null,
  };
  let answered: Awaited<ReturnType<typeof answerQuery>>;
  try {
    answered = await answerQuery(deps, bot, query, signal);
  } catch (error) {
    return { ...none, error: error instanceof ChatReplyError ? error.message : CHAT_ERRORS.unknown };
  }
  const { answer, sources } = answered;
  const faithfulness = faithfulnessOfAnswer(deps, { answer, sources }, signal);
  try {
    const expectation = expected ?? undefined;
    const verdict = await judgeAnswer(deps.judge, { bot, query, answer, sources, expectation }, signal);
    return { ...none, answer, ...verdict, error: null, faithfulness: await faithfulness };
  } catch {
    return { ...none, answer, verdict: 'judge_unavailable', error: JUDGE_FAILED, faithfulness: await faithfulness };
  }
}

/**
 * The answer checked against its sources by the judge's model, beside its verdict (decision 0044): null without
 * sources or when the check fails, which never fails the question.
 */
async function faithfulnessOfAnswer(
  deps: { judge: Ai; log: FastifyBaseLogger },
  c: SupportCase,
  signal: AbortSignal,
): Promise<number | null> {
  if (!c.sources.length || !c.answer.trim()) return null;
  try {
    return faithfulnessOf(await checkSupport(deps.judge, c, signal, deps.log));
  } catch (err) {
    if (!signal.aborted) deps.log.warn({ err }, 'evaluation: the support check failed');
    return null;
  }
}

/** The bot's finished test runs, newest first, whoever asks (the caller checked the bot is theirs). */
export const finishedEvaluationsOf = (db: Executor, botId: number) => findEvaluations(db, botId, { finished: true });

/** The caller's bot's current version (404 when the bot is not theirs). */
export const currentVersion = async (deps: EvaluationsDeps, userId: number, botId: number) =>
  (await requireOwnedBot(deps.db.kysely, userId, botId)).version;

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
  return requireEvaluation(deps.db.kysely, botId, id);
}

export async function requireEvaluation(db: Executor, botId: number, id: number): Promise<Evaluation> {
  const evaluation = await findEvaluation(db, botId, id);
  if (!evaluation) throw new AppError('NOT_FOUND', EVALUATION_MESSAGES.notFound);
  return evaluation;
}

/**
 * Cancels a queued or running evaluation; cancelling one that ended changes nothing (the answer says how it
 * ended). A running one stops before its next question, on whichever instance runs it.
 */
export async function cancel(
  deps: EvaluationsDeps,
  userId: number,
  botId: number,
  id: number,
): Promise<EvaluationSummary> {
  const db = deps.db.kysely;
  await requireOwnedBot(db, userId, botId);
  const { results: _, ...evaluation } = await requireEvaluation(db, botId, id);
  const was = await cancelEvaluation(db, id, isoNow(deps.clock));
  if (!was) return evaluation;
  deps.signals.cancelled(id);
  const ended = await findEnded(db, id);
  // A queued run has no runner to say it ended.
  if (was === 'queued' && ended) await deps.evaluationFinished?.(ended);
  return { ...evaluation, status: 'cancelled' };
}

/**
 * Two runs of the bot compared question by question, with the verdict line; whoever asks (the caller checked
 * the bot is theirs). 404 when either is not the bot's.
 */
export async function evaluationComparison(
  db: Executor,
  botId: number,
  beforeId: number,
  afterId: number,
): Promise<EvaluationComparison> {
  const before = await requireEvaluation(db, botId, beforeId);
  const after = await requireEvaluation(db, botId, afterId);
  const compared = compareEvaluations(before, after);
  const { results: _b, ...beforeSummary } = before;
  const { results: _a, ...afterSummary } = after;
  return {
    before: beforeSummary,
    after: afterSummary,
    ...compared,
    verdict: verdictSentence({ before: before.version, after: after.version }, compared.totals),
  };
}

export async function compare(deps: EvaluationsDeps, userId: number, botId: number, beforeId: number, afterId: number) {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return evaluationComparison(deps.db.kysely, botId, beforeId, afterId);
}
