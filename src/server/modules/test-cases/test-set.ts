import type { TestCase } from '@shared/contracts/test-cases';
import type { Executor } from '../../db/database';
import { fromJson } from '../../db/json';

/**
 * The questions an evaluation of the bot answers, oldest first. Until test cases have their own table this reads
 * the bot's example queries with their Train-step notes.
 */
export async function readTestSet(db: Executor, botId: number): Promise<TestCase[]> {
  const row = await db
    .selectFrom('bots')
    .select(['example_queries', 'test_notes', 'created_at'])
    .where('id', '=', botId)
    .executeTakeFirst();
  if (!row) return [];
  const queries = fromJson(row.example_queries) as string[];
  const notes = new Map((fromJson(row.test_notes) as { query: string; expected: string }[]).map((n) => [n.query, n]));
  return queries.map((query, i) => ({
    id: i + 1,
    botId,
    query,
    expected: notes.get(query)?.expected || null,
    tags: [],
    sourceMessageId: null,
    createdAt: row.created_at,
    updatedAt: row.created_at,
  }));
}
