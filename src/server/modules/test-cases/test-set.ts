import { TEST_CASES_MAX } from '@shared/constants';
import type { TestNote } from '@shared/contracts/bots';
import type { TestCase } from '@shared/contracts/test-cases';
import type { Executor } from '../../db/database';
import { findTestCases, insertTestCases, toTestCase, type TestCaseFields } from './test-cases.repository';

/** The questions an evaluation of the bot answers: its test cases, oldest first. */
export async function readTestSet(db: Executor, botId: number): Promise<TestCase[]> {
  return (await findTestCases(db, botId)).map(toTestCase);
}

/** A new bot's tests: its example queries with the expected answers of their Train-step notes (decision 0041). */
export function testsFromExampleQueries(queries: readonly string[], notes: readonly TestNote[]): TestCaseFields[] {
  const expected = new Map(notes.map((note) => [note.query, note.expected || null]));
  return queries.map((query) => ({ query, expected: expected.get(query) ?? null, tags: [] }));
}

/** Seeds a bot just created (in its transaction): each question once, at most the limit. */
export async function seedTestSet(db: Executor, botId: number, cases: readonly TestCaseFields[], at: string) {
  const seen = new Set<string>();
  const unique = cases.filter((c) => !seen.has(c.query) && seen.add(c.query)).slice(0, TEST_CASES_MAX);
  await insertTestCases(db, botId, unique, at);
}
