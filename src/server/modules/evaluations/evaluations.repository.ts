import type { Selectable } from 'kysely';
import type { EvaluationResult, EvaluationSummary } from '@shared/contracts/evaluations';
import type { EvaluationResultsTable, EvaluationStatus, EvaluationsTable, Executor } from '../../db/database';

type EvaluationRow = Selectable<EvaluationsTable> & { passed: number | string | bigint | null };

const toSummary = (row: EvaluationRow): EvaluationSummary => ({
  id: row.id,
  botId: row.bot_id,
  version: row.bot_version,
  status: row.status,
  total: row.total,
  // PostgreSQL counts as bigint, which its driver hands back as text.
  passed: Number(row.passed),
  createdAt: row.created_at,
});

const toResult = (row: Selectable<EvaluationResultsTable>): EvaluationResult => ({
  index: row.ord,
  query: row.query,
  answer: row.answer,
  verdict: row.verdict,
  reason: row.reason,
  error: row.error,
});

const withPassed = (db: Executor) =>
  db
    .selectFrom('evaluations')
    .selectAll('evaluations')
    .select((eb) =>
      eb
        .selectFrom('evaluation_results')
        .select((r) => r.fn.countAll().as('n'))
        .whereRef('evaluation_results.evaluation_id', '=', 'evaluations.id')
        .where('verdict', '=', 'pass')
        .as('passed'),
    );

/** Unique index `evaluations_one_running`: another evaluation of the bot is running. */
export function isAlreadyRunning(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23505' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed'));
}

/** A running evaluation that made no progress since `staleBefore` died with its instance. */
export const markStaleEvaluations = (db: Executor, botId: number, staleBefore: string) =>
  db
    .updateTable('evaluations')
    .set({ status: 'interrupted' })
    .where('bot_id', '=', botId)
    .where('status', '=', 'running')
    .where('updated_at', '<', staleBefore)
    .execute();

export async function insertEvaluation(
  db: Executor,
  e: { botId: number; version: number; total: number },
  now: string,
): Promise<EvaluationSummary> {
  const row = await db
    .insertInto('evaluations')
    .values({
      bot_id: e.botId,
      bot_version: e.version,
      status: 'running',
      total: e.total,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSummary({ ...row, passed: 0 });
}

export async function insertResult(db: Executor, evaluationId: number, r: EvaluationResult, now: string) {
  await db
    .insertInto('evaluation_results')
    .values({
      evaluation_id: evaluationId,
      ord: r.index,
      query: r.query,
      answer: r.answer,
      verdict: r.verdict,
      reason: r.reason,
      error: r.error,
    })
    .execute();
  await db.updateTable('evaluations').set({ updated_at: now }).where('id', '=', evaluationId).execute();
}

export async function finishEvaluation(db: Executor, id: number, status: EvaluationStatus, now: string) {
  await db.updateTable('evaluations').set({ status, updated_at: now }).where('id', '=', id).execute();
  return toSummary(await withPassed(db).where('id', '=', id).executeTakeFirstOrThrow());
}

export const deleteEvaluation = async (db: Executor, id: number) => {
  await db.deleteFrom('evaluations').where('id', '=', id).execute();
};

/** Newest first; only the finished ones (`done`) with `finished`. */
export async function findEvaluations(
  db: Executor,
  botId: number,
  { finished = false } = {},
): Promise<EvaluationSummary[]> {
  let query = withPassed(db).where('bot_id', '=', botId);
  if (finished) query = query.where('status', '=', 'done');
  return (await query.orderBy('id', 'desc').execute()).map(toSummary);
}

export async function findEvaluation(db: Executor, botId: number, id: number) {
  const row = await withPassed(db).where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const results = await db
    .selectFrom('evaluation_results')
    .selectAll()
    .where('evaluation_id', '=', id)
    .orderBy('ord')
    .execute();
  return { ...toSummary(row), results: results.map(toResult) };
}
