import type { Selectable } from 'kysely';
import type { EvaluationResult, EvaluationSummary } from '@shared/contracts/evaluations';
import type { Db, EvaluationResultsTable, EvaluationsTable, Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';
import { isUniqueViolation } from '../../db/unique-violation';

/** A question as a run asks it, fixed when the run is queued. */
export interface QueuedQuestion {
  id: number;
  query: string;
  expected: string | null;
}

type Counted = number | string | bigint | null;
type EvaluationRow = Selectable<EvaluationsTable> & {
  passed: Counted;
  completed: Counted;
  unavailable: Counted;
  faithfulness: Counted;
};

/** An evaluation row as its runner needs it. */
export interface EvaluationJob {
  id: number;
  botId: number;
  version: number;
  releaseId: number | null;
  questions: QueuedQuestion[];
}

// PostgreSQL counts as bigint, which its driver hands back as text.
const toSummary = (row: EvaluationRow): EvaluationSummary => ({
  id: row.id,
  botId: row.bot_id,
  version: row.bot_version,
  status: row.status,
  total: row.total,
  completed: Number(row.completed),
  passed: Number(row.passed),
  judgeUnavailable: Number(row.unavailable),
  faithfulness: row.faithfulness === null ? null : Number(row.faithfulness),
  createdAt: row.created_at,
});

const toResult = (row: Selectable<EvaluationResultsTable>): EvaluationResult => ({
  index: row.ord,
  testCaseId: row.test_case_id,
  query: row.query,
  answer: row.answer,
  verdict: row.verdict,
  score: row.score,
  reason: row.reason,
  error: row.error,
  faithfulness: row.faithfulness,
});

const withCounts = (db: Executor) =>
  db
    .selectFrom('evaluations')
    .selectAll('evaluations')
    .select((eb) => {
      const results = () =>
        eb
          .selectFrom('evaluation_results')
          .select((r) => r.fn.countAll().as('n'))
          .whereRef('evaluation_results.evaluation_id', '=', 'evaluations.id');
      return [
        results().as('completed'),
        results().where('verdict', '=', 'pass').as('passed'),
        results().where('verdict', '=', 'judge_unavailable').as('unavailable'),
        eb
          .selectFrom('evaluation_results')
          .select((r) => r.fn.avg<number | string | null>('faithfulness').as('f'))
          .whereRef('evaluation_results.evaluation_id', '=', 'evaluations.id')
          .as('faithfulness'),
      ];
    });

/** Unique index `evaluations_one_active`: another evaluation of the bot is queued or running. */
export const isAlreadyRunning = isUniqueViolation;

export async function insertEvaluation(
  db: Executor,
  e: { botId: number; version: number; questions: QueuedQuestion[]; releaseId: number | null },
  now: string,
): Promise<EvaluationSummary> {
  const row = await db
    .insertInto('evaluations')
    .values({
      bot_id: e.botId,
      bot_version: e.version,
      status: 'queued',
      total: e.questions.length,
      release_id: e.releaseId,
      test_set: toJson(e.questions),
      lease_until: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSummary({ ...row, passed: 0, completed: 0, unavailable: 0, faithfulness: null });
}

/**
 * Leases the oldest evaluation waiting to run (queued, or running under a lease that expired: its instance died)
 * until `leaseUntil`. On PostgreSQL, SKIP LOCKED lets instances claim different runs at once, as with files.
 */
export async function claimNextEvaluation(db: Db, now: string, leaseUntil: string): Promise<EvaluationJob | undefined> {
  const row = await db.kysely
    .updateTable('evaluations')
    .set({ status: 'running', lease_until: leaseUntil, updated_at: now })
    .where('id', '=', (eb) => {
      const next = eb
        .selectFrom('evaluations')
        .select('id')
        .where((w) =>
          w.or([
            w('status', '=', 'queued'),
            w.and([w('status', '=', 'running'), w.or([w('lease_until', 'is', null), w('lease_until', '<', now)])]),
          ]),
        )
        .orderBy('id')
        .limit(1);
      return db.kind === 'postgres' ? next.forUpdate().skipLocked() : next;
    })
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    botId: row.bot_id,
    version: row.bot_version,
    releaseId: row.release_id,
    questions: (fromJson(row.test_set) ?? []) as QueuedQuestion[],
  };
}

/** Moves the lease on; false when the run is no longer this runner's (cancelled, or taken over). */
export async function renewLease(db: Executor, id: number, lease: string, next: string, now: string) {
  const updated = await db
    .updateTable('evaluations')
    .set({ lease_until: next, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('lease_until', '=', lease)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Gives a running evaluation back (its instance is stopping), so the next start or another instance resumes it. */
export const releaseEvaluation = (db: Executor, id: number, lease: string) =>
  db
    .updateTable('evaluations')
    .set({ lease_until: null })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('lease_until', '=', lease)
    .execute();

/** Ends a run this runner still holds; false when it was not (cancelled meanwhile, or taken over). */
export async function finishEvaluation(
  db: Executor,
  id: number,
  lease: string,
  status: 'done' | 'failed',
  now: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('evaluations')
    .set({ status, lease_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('lease_until', '=', lease)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Cancels a queued or running evaluation; returns the status it had (a queued one has no runner to report its
 * end), null when it was not active any more.
 */
export async function cancelEvaluation(db: Executor, id: number, now: string): Promise<'queued' | 'running' | null> {
  const row = await db.selectFrom('evaluations').select('status').where('id', '=', id).executeTakeFirst();
  if (row?.status !== 'queued' && row?.status !== 'running') return null;
  const updated = await db
    .updateTable('evaluations')
    .set({ status: 'cancelled', lease_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 ? row.status : null;
}

/** Stores one answered question; false when it was stored already (a run that overran its lease met its successor). */
export async function insertResult(db: Executor, evaluationId: number, r: EvaluationResult): Promise<boolean> {
  try {
    await db
      .insertInto('evaluation_results')
      .values({
        evaluation_id: evaluationId,
        ord: r.index,
        test_case_id: r.testCaseId,
        query: r.query,
        answer: r.answer,
        verdict: r.verdict,
        score: r.score,
        reason: r.reason,
        error: r.error,
        faithfulness: r.faithfulness,
      })
      .execute();
    return true;
  } catch (error) {
    if (isAlreadyRunning(error)) return false;
    throw error;
  }
}

/** Newest first; only the finished ones (`done`) with `finished`, only one version's with `version`. */
export async function findEvaluations(
  db: Executor,
  botId: number,
  { finished = false, version }: { finished?: boolean; version?: number } = {},
): Promise<EvaluationSummary[]> {
  let query = withCounts(db).where('bot_id', '=', botId);
  if (finished) query = query.where('status', '=', 'done');
  if (version !== undefined) query = query.where('bot_version', '=', version);
  return (await query.orderBy('id', 'desc').execute()).map(toSummary);
}

export async function findSummary(db: Executor, id: number): Promise<EvaluationSummary | undefined> {
  const row = await withCounts(db).where('id', '=', id).executeTakeFirst();
  return row && toSummary(row);
}

/** The run with the release that queued it, as `evaluationFinished` is told. */
export async function findEnded(db: Executor, id: number) {
  const row = await withCounts(db).where('id', '=', id).executeTakeFirst();
  return row && { ...toSummary(row), releaseId: row.release_id };
}

/** The results stored after `afterIndex` (all with -1), in order. */
export async function findResults(db: Executor, id: number, afterIndex = -1): Promise<EvaluationResult[]> {
  const rows = await db
    .selectFrom('evaluation_results')
    .selectAll()
    .where('evaluation_id', '=', id)
    .where('ord', '>', afterIndex)
    .orderBy('ord')
    .execute();
  return rows.map(toResult);
}

export async function findEvaluation(db: Executor, botId: number, id: number) {
  const row = await withCounts(db).where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { ...toSummary(row), results: await findResults(db, id) };
}
