import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/** SQLite gives JSON columns back as text, PostgreSQL as values (db/json.ts; not importable from a migration). */
const parsed = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * Every bot's example queries, with the expected answer of its Train-step note, as test cases: the test set each
 * bot had before it got its own table. Exported so a test can replay it on a bot written the old way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
export async function copyExampleQueries(db: Kysely<any>, botIds?: number[]): Promise<void> {
  let query = db.selectFrom('bots').select(['id', 'example_queries', 'test_notes', 'created_at']);
  if (botIds) query = query.where('id', 'in', botIds);
  for (const bot of await query.execute()) {
    const queries = parsed(bot.example_queries) as string[];
    const notes = parsed(bot.test_notes) as { query: string; expected?: string }[];
    const expected = new Map(notes.map((n) => [n.query, n.expected?.trim() || null]));
    // Each question once (the unique key), as the bot's list should already have them.
    const rows = [...new Set(queries)].map((q) => ({
      bot_id: bot.id,
      query: q,
      expected: expected.get(q) ?? null,
      tags: '[]',
      created_at: bot.created_at,
      updated_at: bot.created_at,
    }));
    // Ids follow the list's order, so "oldest first" keeps the order the owner gave them.
    for (const row of rows) await db.insertInto('test_cases').values(row).execute();
  }
}

/**
 * A bot's test set in a table of its own (issue 25, decision 0041): questions with an expected answer or
 * criteria, tags, and the rated reply a case came from. Seeded from the example queries once; from then on the
 * chat starters and the tests change separately.
 */
export const testCases: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('test_cases')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('expected', 'text')
      .addColumn('tags', t.json, (c) => c.notNull().defaultTo('[]'))
      // Not a foreign key: the case stays when its conversation is deleted.
      .addColumn('source_message_id', 'integer')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('test_cases_bot_query', ['bot_id', 'query'])
      .execute();
    await copyExampleQueries(db);
  },
};
