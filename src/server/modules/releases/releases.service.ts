import type { EvaluationSummary } from '@shared/contracts/evaluations';
import { RELEASE_MESSAGES, type CreateReleaseBody, type Release, type ReleaseGate } from '@shared/contracts/releases';
import { isoNow } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isUniqueViolation } from '../../db/unique-violation';
import { requireOwnedBot } from '../bots/bots.service';
import { findVersionOf } from '../bots/versions.service';
import { latestFinishedEvaluation, queueEvaluation } from '../evaluations/evaluation-jobs';
import { requireEvaluation, type EvaluationsDeps } from '../evaluations/evaluations.service';
import { readTestSet } from '../test-cases/test-set';
import { judgeRelease, untestedVerdict } from './release-gate';
import {
  decideRelease,
  deleteRelease,
  findLatestRelease,
  findRelease,
  findReleaseById,
  findReleaseGate,
  findReleases,
  insertRelease,
  saveReleaseGate,
  setPublishedVersion,
  setReleaseEvaluations,
  type NewRelease,
} from './releases.repository';

export type ReleasesDeps = EvaluationsDeps;

const checking = () => new AppError('CONFLICT', RELEASE_MESSAGES.checking);

/**
 * Asks to publish `body.version` (the latest when left out). A rollback (`skipGate`) of a version published
 * before, an override with a reason, and a bot without a test set publish at once; anything else is checked: the
 * test set runs on the published version when no finished run of it asked the same questions, then on the
 * release's version, and the gate decides (decideWhenRun). `countCalls`: the per-minute model-call limit.
 */
export async function requestRelease(
  deps: ReleasesDeps,
  userId: number,
  botId: number,
  body: CreateReleaseBody,
  countCalls?: (calls: number) => Promise<void>,
): Promise<Release> {
  const db = deps.db.kysely;
  const bot = await requireOwnedBot(db, userId, botId);
  const version = body.version ?? bot.version;
  if (version !== bot.version && !(await findVersionOf(db, botId, version))) {
    throw new AppError('NOT_FOUND', RELEASE_MESSAGES.versionNotFound);
  }
  if (version === bot.publishedVersion) throw new AppError('CONFLICT', RELEASE_MESSAGES.alreadyPublished);
  const base = { botId, version, createdBy: userId, baselineVersion: bot.publishedVersion };
  const gate = await findReleaseGate(db, botId);

  if (body.skipGate) {
    if (!(await findLatestRelease(db, botId, version, ['published']))) {
      throw new AppError('BAD_REQUEST', RELEASE_MESSAGES.neverPublished);
    }
    return publishAtOnce(deps, {
      ...base,
      status: 'published',
      skipGate: true,
      message: `Rolled back to version ${version}.`,
    });
  }
  if (body.override) {
    // What the override went past: the last blocked check of this version, kept with the reason.
    const blocked = await findLatestRelease(db, botId, version, ['blocked']);
    return publishAtOnce(deps, {
      ...base,
      status: 'published',
      overrideReason: body.override.reason,
      verdict: blocked?.verdict ?? null,
      evaluationId: blocked?.evaluationId ?? null,
      baselineEvaluationId: blocked?.baselineEvaluationId ?? null,
    });
  }
  if ((await readTestSet(db, botId)).length === 0) {
    return publishAtOnce(deps, { ...base, status: 'published', verdict: untestedVerdict(gate) });
  }

  let release: Release;
  try {
    release = await insertRelease(db, { ...base, status: 'checking' }, isoNow(deps.clock));
  } catch (error) {
    if (isUniqueViolation(error)) throw checking();
    throw error;
  }
  try {
    await runNext(deps, userId, release, countCalls);
  } catch (error) {
    // Nothing could be queued (offline, a limit, another run of the bot): no release was asked for after all.
    await deleteRelease(db, release.id);
    throw error;
  }
  return (await findReleaseById(db, release.id))!;
}

async function publishAtOnce(deps: ReleasesDeps, release: NewRelease): Promise<Release> {
  const now = isoNow(deps.clock);
  try {
    return await deps.db.kysely.transaction().execute(async (tx) => {
      const underWay = await tx
        .selectFrom('bot_releases')
        .select('id')
        .where('bot_id', '=', release.botId)
        .where('status', '=', 'checking')
        .executeTakeFirst();
      if (underWay) throw checking();
      const saved = await insertRelease(tx, release, now);
      await setPublishedVersion(tx, release.botId, release.version);
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw checking();
    throw error;
  }
}

/** The published version's run is reused when it asked every question the test set asks now. */
async function reusableBaseline(deps: ReleasesDeps, botId: number, version: number) {
  const latest = await latestFinishedEvaluation(deps.db.kysely, botId, version);
  if (!latest) return undefined;
  const run = await requireEvaluation(deps.db.kysely, botId, latest.id);
  const asked = new Set(run.results.map((r) => r.query));
  const questions = await readTestSet(deps.db.kysely, botId);
  return questions.every((q) => asked.has(q.query)) ? latest : undefined;
}

/** Queues the next run the release needs, or decides when both are there. */
async function runNext(
  deps: ReleasesDeps,
  ownerId: number,
  release: Release,
  countCalls?: (calls: number) => Promise<void>,
) {
  const db = deps.db.kysely;
  const queue = (version: number) =>
    queueEvaluation(deps, {
      ownerId,
      botId: release.botId,
      version,
      releaseId: release.id,
      ...(countCalls ? { countCalls } : {}),
    });
  if (release.baselineVersion !== null && release.baselineEvaluationId === null) {
    const reused = await reusableBaseline(deps, release.botId, release.baselineVersion);
    const baseline = reused ?? (await queue(release.baselineVersion));
    await setReleaseEvaluations(db, release.id, { baselineEvaluationId: baseline.id });
    if (!reused) return;
    release = { ...release, baselineEvaluationId: baseline.id };
  }
  if (release.evaluationId === null) {
    const run = await queue(release.version);
    await setReleaseEvaluations(db, release.id, { evaluationId: run.id });
    return;
  }
  await decide(deps, release);
}

async function decide(deps: ReleasesDeps, release: Release) {
  const db = deps.db.kysely;
  const now = isoNow(deps.clock);
  const load = async (id: number | null) =>
    id === null ? null : await requireEvaluation(db, release.botId, id).catch(() => null);
  const after = await load(release.evaluationId);
  const before = await load(release.baselineEvaluationId);
  const runs = release.baselineVersion === null ? [after] : [after, before];
  if (!after || !runs.every((run) => run?.status === 'done')) {
    const what = runs.some((run) => run?.status === 'cancelled') ? 'was cancelled' : 'could not finish';
    await decideRelease(db, release.id, { status: 'failed', message: `The test run ${what}.` }, now);
    return;
  }
  const gate = await findReleaseGate(db, release.botId);
  const verdict = judgeRelease(gate, after, before);
  const status = verdict.blockedBy.length ? 'blocked' : 'published';
  await db.transaction().execute(async (tx) => {
    if ((await decideRelease(tx, release.id, { status, verdict }, now)) && status === 'published') {
      await setPublishedVersion(tx, release.botId, release.version);
    }
  });
}

/**
 * Called by the evaluation runner when a run ends, on whichever instance ran it: a run of a release moves the
 * release on (the next run, or the decision). A release that cannot go on fails with a message.
 */
export async function decideWhenRun(deps: ReleasesDeps, evaluation: EvaluationSummary & { releaseId: number | null }) {
  if (evaluation.releaseId === null) return;
  const release = await findReleaseById(deps.db.kysely, evaluation.releaseId);
  if (release?.status !== 'checking') return;
  if (evaluation.status !== 'done') return decide(deps, release);
  const owner = await deps.db.kysely
    .selectFrom('bots')
    .select('user_id')
    .where('id', '=', release.botId)
    .executeTakeFirstOrThrow();
  try {
    await runNext(deps, owner.user_id, release);
  } catch (error) {
    const message = error instanceof AppError ? error.message : 'The test run could not start.';
    await decideRelease(deps.db.kysely, release.id, { status: 'failed', message }, isoNow(deps.clock));
    if (!(error instanceof AppError)) throw error;
  }
}

export async function listReleases(deps: ReleasesDeps, userId: number, botId: number): Promise<Release[]> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return findReleases(deps.db.kysely, botId);
}

export async function getRelease(deps: ReleasesDeps, userId: number, botId: number, id: number): Promise<Release> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  const release = await findRelease(deps.db.kysely, botId, id);
  if (!release) throw new AppError('NOT_FOUND', RELEASE_MESSAGES.notFound);
  return release;
}

export async function getReleaseGate(deps: ReleasesDeps, userId: number, botId: number): Promise<ReleaseGate> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return findReleaseGate(deps.db.kysely, botId);
}

export async function putReleaseGate(
  deps: ReleasesDeps,
  userId: number,
  botId: number,
  gate: ReleaseGate,
): Promise<ReleaseGate> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  await saveReleaseGate(deps.db.kysely, botId, gate);
  return gate;
}
