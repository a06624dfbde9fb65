import { z } from 'zod';
import {
  TEST_CASES_MAX,
  TEST_CSV_MAX_BYTES,
  TEST_EXPECTED_MAX,
  TEST_QUERY_MAX,
  TEST_TAG_MAX,
  TEST_TAGS_MAX,
} from '../constants';
import { idParamSchema } from './common';
import { formatBytes } from '../format-bytes';

/**
 * One question of a bot's test set: what a release is checked against. `expected` is an expected answer or the
 * criteria an answer must meet (the judge reads it either way); null when any fitting answer passes.
 */
export const testCaseSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  query: z.string(),
  expected: z.string().nullable(),
  tags: z.array(z.string()),
  /** The rated reply this case was made from ("Add to tests"), when it was. */
  sourceMessageId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TestCase = z.infer<typeof testCaseSchema>;

export const TEST_CASE_MESSAGES = {
  query: `Question must be 1 to ${TEST_QUERY_MAX} characters`,
  expected: `Expected answer must be at most ${TEST_EXPECTED_MAX} characters`,
  tag: `Each tag must be 1 to ${TEST_TAG_MAX} characters, without ";"`,
  tags: `At most ${TEST_TAGS_MAX} tags`,
  notFound: 'Test case not found',
  deleted: 'Test case deleted',
  tooMany: `A bot can have at most ${TEST_CASES_MAX} test cases`,
  duplicate: (query: string) => `"${clip(query)}" is already a test of this bot`,
  notReply: 'Only a reply can become a test case',
  noQuestion: 'This reply answers no question',
  csvTooLarge: `A test set CSV can be at most ${formatBytes(TEST_CSV_MAX_BYTES)}`,
  csvUnreadable: (reason: string) => `This CSV cannot be read: ${reason}`,
  csvHeader: 'The CSV needs a header row with a "query" column (and optionally "expected" and "tags")',
  csvRow: (row: number, message: string) => `Row ${row}: ${message}`,
  csvDuplicate: 'the question is listed twice in the file',
} as const;

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

const querySchema = z
  .string({ error: TEST_CASE_MESSAGES.query })
  .trim()
  .min(1, TEST_CASE_MESSAGES.query)
  .max(TEST_QUERY_MAX, TEST_CASE_MESSAGES.query);

/** Empty text means none, so a cleared field and a missing one read the same. */
const expectedSchema = z
  .string({ error: TEST_CASE_MESSAGES.expected })
  .trim()
  .max(TEST_EXPECTED_MAX, TEST_CASE_MESSAGES.expected)
  .nullable()
  .transform((text) => text || null);

/** Tags are joined by ";" in the CSV, so a tag cannot hold one; repeats are dropped. */
const tagsSchema = z
  .array(
    z
      .string({ error: TEST_CASE_MESSAGES.tag })
      .trim()
      .min(1, TEST_CASE_MESSAGES.tag)
      .max(TEST_TAG_MAX, TEST_CASE_MESSAGES.tag)
      .refine((tag) => !tag.includes(';'), TEST_CASE_MESSAGES.tag),
    { error: TEST_CASE_MESSAGES.tags },
  )
  .max(TEST_TAGS_MAX, TEST_CASE_MESSAGES.tags)
  .transform((tags) => [...new Set(tags)]);

/** POST /api/bots/{id}/tests, and one row of an imported CSV. */
export const testCaseBodySchema = z.object({
  query: querySchema,
  expected: expectedSchema.optional(),
  tags: tagsSchema.optional(),
});
export type TestCaseBody = z.infer<typeof testCaseBodySchema>;
export type TestCaseRequest = z.input<typeof testCaseBodySchema>;

/** PATCH /api/bots/{id}/tests/{testId}: only the fields sent change. */
export const testCasePatchSchema = testCaseBodySchema.partial();
export type TestCasePatch = z.infer<typeof testCasePatchSchema>;

export const testCaseParamsSchema = z.object({ id: idParamSchema, testId: idParamSchema });

/** What POST /api/bots/{id}/tests/import did: rows added, rows whose question was a test already (updated). */
export const testImportResultSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  tests: z.array(testCaseSchema),
});
export type TestImportResult = z.infer<typeof testImportResultSchema>;

/** A 409 when the question is a test already: the existing case rides along. */
export const testCaseConflictSchema = z.object({ message: z.string(), testCase: testCaseSchema });

/** The CSV's columns, in order; tags are joined by ";" in one cell. */
export const TEST_CSV_COLUMNS = ['query', 'expected', 'tags'] as const;
export const TEST_CSV_TAG_SEPARATOR = ';';
