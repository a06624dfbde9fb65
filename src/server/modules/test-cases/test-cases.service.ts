import { TEST_CASES_MAX, TEST_QUERY_MAX } from '@shared/constants';
import { FEEDBACK_MESSAGES } from '@shared/contracts/feedback';
import {
  TEST_CASE_MESSAGES as MESSAGES,
  type TestCase,
  type TestCaseBody,
  type TestCasePatch,
  type TestImportResult,
} from '@shared/contracts/test-cases';
import type { Db, DbScope, Executor } from '../../db/database';
import { inTransaction } from '../../db/write-atomically';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireOwnedBot, requireOwnedBotToChange } from '../bots/bots.service';
import { readTestSetCsv, testSetCsv } from './test-cases-csv';
import {
  countTestCases,
  deleteTestCase,
  findTestCase,
  findQuestionOf,
  findReplyOfOwnedBot,
  findTestCaseByQuery,
  insertTestCases,
  toTestCase,
  updateTestCase,
  type TestCaseFields,
} from './test-cases.repository';
import { readTestSet } from './test-set';

export interface TestCasesDeps {
  db: Db;
  clock: Clock;
}

/** A 409 that carries the case already asking the question, so a client can point to it. */
export const duplicateTest = (existing: TestCase) =>
  new AppError('CONFLICT', MESSAGES.duplicate(existing.query), { testCase: existing });

const notFound = () => new AppError('NOT_FOUND', MESSAGES.notFound);

/**
 * Runs `work` with the caller's bot locked (PostgreSQL) or in SQLite's single writer, so the count limit and
 * the one-question-once rule hold for writes that race. Another user's bot is 404.
 */
export function changeTestSet<T>(
  deps: TestCasesDeps,
  userId: number,
  botId: number,
  work: (scope: DbScope, at: string) => Promise<T>,
): Promise<T> {
  const at = isoNow(deps.clock);
  return inTransaction(deps.db, async (scope) => {
    await requireOwnedBotToChange(scope, userId, botId);
    return work(scope, at);
  });
}

/** Adds one case to a bot already locked: the limit, then the question must be new. */
export async function addTestCase(db: Executor, botId: number, fields: TestCaseFields, at: string) {
  const existing = await findTestCaseByQuery(db, botId, fields.query);
  if (existing) throw duplicateTest(toTestCase(existing));
  if ((await countTestCases(db, botId)) >= TEST_CASES_MAX) throw new AppError('BAD_REQUEST', MESSAGES.tooMany);
  const [row] = await insertTestCases(db, botId, [fields], at);
  return toTestCase(row!);
}

export async function listTests(deps: TestCasesDeps, userId: number, botId: number): Promise<TestCase[]> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return readTestSet(deps.db.kysely, botId);
}

export const createTest = (deps: TestCasesDeps, userId: number, botId: number, body: TestCaseBody) =>
  changeTestSet(deps, userId, botId, (scope, at) =>
    addTestCase(scope.kysely, botId, { query: body.query, expected: body.expected ?? null, tags: body.tags ?? [] }, at),
  );

export const editTest = (deps: TestCasesDeps, userId: number, botId: number, testId: number, patch: TestCasePatch) =>
  changeTestSet(deps, userId, botId, async ({ kysely: db }, at) => {
    if (!(await findTestCase(db, botId, testId))) throw notFound();
    if (patch.query !== undefined) {
      const other = await findTestCaseByQuery(db, botId, patch.query);
      if (other && other.id !== testId) throw duplicateTest(toTestCase(other));
    }
    return toTestCase(await updateTestCase(db, testId, patch, at));
  });

export const removeTest = (deps: TestCasesDeps, userId: number, botId: number, testId: number) =>
  changeTestSet(deps, userId, botId, async ({ kysely: db }) => {
    const { numDeletedRows } = await deleteTestCase(db, botId, testId);
    if (Number(numDeletedRows) === 0) throw notFound();
    return { message: MESSAGES.deleted };
  });

/** The test set as a CSV download named after the bot. */
export async function exportTestsCsv(deps: TestCasesDeps, userId: number, botId: number) {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return testSetCsv(await readTestSet(deps.db.kysely, botId));
}

/**
 * Adds the CSV's rows whose question is new and updates those already tests (their expected answer and tags,
 * when the file has those columns). The whole file is checked before anything changes: a bad row, or more
 * cases than a bot may have, changes nothing.
 */
export async function importTestsCsv(
  deps: TestCasesDeps,
  userId: number,
  botId: number,
  text: string,
): Promise<TestImportResult> {
  const rows = readTestSetCsv(text);
  return changeTestSet(deps, userId, botId, async ({ kysely: db }, at) => {
    const existing = new Map((await readTestSet(db, botId)).map((c) => [c.query, c]));
    const fresh = rows.filter((row) => !existing.has(row.query));
    if (existing.size + fresh.length > TEST_CASES_MAX) throw new AppError('BAD_REQUEST', MESSAGES.tooMany);
    let updated = 0;
    for (const row of rows) {
      const current = existing.get(row.query);
      if (!current) continue;
      const changes = {
        ...(row.expected !== undefined && row.expected !== current.expected ? { expected: row.expected } : {}),
        ...(row.tags && row.tags.join('\n') !== current.tags.join('\n') ? { tags: row.tags } : {}),
      };
      if (Object.keys(changes).length === 0) continue;
      await updateTestCase(db, current.id, changes, at);
      updated++;
    }
    const cases = fresh.map((row) => ({ query: row.query, expected: row.expected ?? null, tags: row.tags ?? [] }));
    await insertTestCases(db, botId, cases, at);
    return { added: fresh.length, updated, tests: await readTestSet(db, botId) };
  });
}

/**
 * "Add to tests": the question a reply of the caller's bot answered becomes a test case, expecting what the
 * rater said was wrong when they rated it down (their comment), else any fitting answer. A reply in a
 * conversation of another user's bot is 404, like a missing one.
 */
export async function testFromReply(deps: TestCasesDeps, userId: number, messageId: number): Promise<TestCase> {
  const reply = await findReplyOfOwnedBot(deps.db.kysely, userId, messageId);
  if (!reply) throw new AppError('NOT_FOUND', FEEDBACK_MESSAGES.notFound);
  if (reply.role !== 'assistant') throw new AppError('BAD_REQUEST', MESSAGES.notReply);
  const question = (await findQuestionOf(deps.db.kysely, reply))?.trim();
  if (!question) throw new AppError('BAD_REQUEST', MESSAGES.noQuestion);
  const expected = reply.rating === 'down' ? reply.rating_comment?.trim() || null : null;
  return changeTestSet(deps, userId, reply.bot_id, (scope, at) =>
    addTestCase(
      scope.kysely,
      reply.bot_id,
      { query: question.slice(0, TEST_QUERY_MAX), expected, tags: [], sourceMessageId: reply.id },
      at,
    ),
  );
}
