import type { Selectable } from 'kysely';
import type { Release, ReleaseGate, ReleaseStatus, ReleaseVerdict } from '@shared/contracts/releases';
import { DEFAULT_RELEASE_GATE } from '@shared/contracts/releases';
import type { BotReleasesTable, Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

type ReleaseRow = Selectable<BotReleasesTable>;

const toRelease = (row: ReleaseRow): Release => ({
  id: row.id,
  botId: row.bot_id,
  version: row.version,
  status: row.status,
  skipGate: Boolean(row.skip_gate),
  overrideReason: row.override_reason,
  baselineVersion: row.baseline_version,
  evaluationId: row.evaluation_id,
  baselineEvaluationId: row.baseline_evaluation_id,
  verdict: row.verdict === null ? null : (fromJson(row.verdict) as ReleaseVerdict),
  message: row.message,
  createdAt: row.created_at,
  decidedAt: row.decided_at,
});

export interface NewRelease {
  botId: number;
  version: number;
  status: ReleaseStatus;
  createdBy: number;
  baselineVersion: number | null;
  skipGate?: boolean;
  overrideReason?: string | null;
  verdict?: ReleaseVerdict | null;
  evaluationId?: number | null;
  baselineEvaluationId?: number | null;
  message?: string | null;
}

/** Fails on the partial unique index when the bot already has a release being checked (isUniqueViolation). */
export async function insertRelease(db: Executor, r: NewRelease, now: string): Promise<Release> {
  const row = await db
    .insertInto('bot_releases')
    .values({
      bot_id: r.botId,
      version: r.version,
      status: r.status,
      skip_gate: r.skipGate ?? false,
      override_reason: r.overrideReason ?? null,
      baseline_version: r.baselineVersion,
      evaluation_id: r.evaluationId ?? null,
      baseline_evaluation_id: r.baselineEvaluationId ?? null,
      verdict: r.verdict ? toJson(r.verdict) : null,
      message: r.message ?? null,
      created_by: r.createdBy,
      created_at: now,
      decided_at: r.status === 'checking' ? null : now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRelease(row);
}

/** Newest first. */
export async function findReleases(db: Executor, botId: number): Promise<Release[]> {
  const rows = await db
    .selectFrom('bot_releases')
    .selectAll()
    .where('bot_id', '=', botId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toRelease);
}

export async function findRelease(db: Executor, botId: number, id: number): Promise<Release | undefined> {
  const row = await db
    .selectFrom('bot_releases')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRelease(row);
}

export async function findReleaseById(db: Executor, id: number): Promise<Release | undefined> {
  const row = await db.selectFrom('bot_releases').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRelease(row);
}

/** The newest release of `version` with one of `statuses`. */
export async function findLatestRelease(
  db: Executor,
  botId: number,
  version: number,
  statuses: readonly ReleaseStatus[],
): Promise<Release | undefined> {
  const row = await db
    .selectFrom('bot_releases')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .where('status', 'in', statuses)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && toRelease(row);
}

export const setReleaseEvaluations = (
  db: Executor,
  id: number,
  ids: { evaluationId?: number; baselineEvaluationId?: number },
) =>
  db
    .updateTable('bot_releases')
    .set({
      ...(ids.evaluationId === undefined ? {} : { evaluation_id: ids.evaluationId }),
      ...(ids.baselineEvaluationId === undefined ? {} : { baseline_evaluation_id: ids.baselineEvaluationId }),
    })
    .where('id', '=', id)
    .execute();

/**
 * Ends a release being checked, once: false when it had ended already (another instance decided first), so
 * only one decision publishes.
 */
export async function decideRelease(
  db: Executor,
  id: number,
  end: { status: Exclude<ReleaseStatus, 'checking'>; verdict?: ReleaseVerdict | null; message?: string | null },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('bot_releases')
    .set({
      status: end.status,
      verdict: end.verdict ? toJson(end.verdict) : null,
      message: end.message ?? null,
      decided_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'checking')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const deleteRelease = (db: Executor, id: number) => db.deleteFrom('bot_releases').where('id', '=', id).execute();

export const setPublishedVersion = (db: Executor, botId: number, version: number) =>
  db.updateTable('bots').set({ published_version: version }).where('id', '=', botId).execute();

export async function findReleaseGate(db: Executor, botId: number): Promise<ReleaseGate> {
  const row = await db.selectFrom('bots').select('release_gate').where('id', '=', botId).executeTakeFirst();
  return row?.release_gate
    ? { ...DEFAULT_RELEASE_GATE, ...(fromJson(row.release_gate) as ReleaseGate) }
    : DEFAULT_RELEASE_GATE;
}

export const saveReleaseGate = (db: Executor, botId: number, gate: ReleaseGate) =>
  db
    .updateTable('bots')
    .set({ release_gate: toJson(gate) })
    .where('id', '=', botId)
    .execute();
