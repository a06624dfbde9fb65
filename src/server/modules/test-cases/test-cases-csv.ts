import { parse } from 'csv-parse/sync';
import {
  TEST_CASE_MESSAGES as MESSAGES,
  TEST_CSV_COLUMNS,
  TEST_CSV_TAG_SEPARATOR,
  testCaseBodySchema,
  type TestCase,
  type TestCaseBody,
} from '@shared/contracts/test-cases';
import { AppError } from '../../lib/errors';

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The test set as CSV with a header row; lines end in CRLF as RFC 4180 says and spreadsheets expect. */
export function testSetCsv(cases: readonly TestCase[]): string {
  const rows = cases.map((c) => [c.query, c.expected ?? '', c.tags.join(TEST_CSV_TAG_SEPARATOR)]);
  return [[...TEST_CSV_COLUMNS], ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** One CSV row as a case; `expected` or `tags` undefined when the file has no such column (left as they are). */
export type ImportedRow = Pick<TestCaseBody, 'query' | 'expected' | 'tags'>;

const rowError = (row: number, message: string) => new AppError('BAD_REQUEST', MESSAGES.csvRow(row, message), { row });

/**
 * Reads a test set CSV: a header row naming `query` (any case; `expected` and `tags` optional, other columns
 * ignored), then one case per row. The first bad row is a 400 naming it (the header is row 1).
 */
export function readTestSetCsv(text: string): ImportedRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (err) {
    throw new AppError('BAD_REQUEST', MESSAGES.csvUnreadable(err instanceof Error ? err.message : String(err)));
  }
  const header = (records[0] ?? []).map((name) => name.trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const [query, expected, tags] = TEST_CSV_COLUMNS.map(column);
  if (query === -1) throw new AppError('BAD_REQUEST', MESSAGES.csvHeader);
  const seen = new Set<string>();
  return records.slice(1).map((record, i) => {
    const row = i + 2;
    const parsed = testCaseBodySchema.safeParse({
      query: record[query!] ?? '',
      ...(expected !== -1 ? { expected: record[expected!] ?? '' } : {}),
      ...(tags !== -1 ? { tags: splitTags(record[tags!] ?? '') } : {}),
    });
    if (!parsed.success) throw rowError(row, parsed.error.issues[0]!.message);
    if (seen.has(parsed.data.query)) throw rowError(row, MESSAGES.csvDuplicate);
    seen.add(parsed.data.query);
    return parsed.data;
  });
}

const splitTags = (text: string) =>
  text
    .split(TEST_CSV_TAG_SEPARATOR)
    .map((tag) => tag.trim())
    .filter(Boolean);
