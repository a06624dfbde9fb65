import type { Selectable } from 'kysely';
import type { TestCase } from '@shared/contracts/test-cases';
import type { Executor, TestCasesTable } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

type TestCaseRow = Selectable<TestCasesTable>;

export const toTestCase = (row: TestCaseRow): TestCase => ({
  id: row.id,
  botId: row.bot_id,
  query: row.query,
  expected: row.expected,
  tags: fromJson(row.tags) as string[],
  sourceMessageId: row.source_message_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What a case holds besides its bot and dates. */
export interface TestCaseFields {
  query: string;
  expected: string | null;
  tags: readonly string[];
  sourceMessageId?: number | null;
}

/** The bot's cases, oldest first: the order an evaluation answers them in. */
export const findTestCases = (db: Executor, botId: number) =>
  db.selectFrom('test_cases').selectAll().where('bot_id', '=', botId).orderBy('id').execute();

export const findTestCase = (db: Executor, botId: number, id: number) =>
  db.selectFrom('test_cases').selectAll().where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst();

export const findTestCaseByQuery = (db: Executor, botId: number, query: string) =>
  db.selectFrom('test_cases').selectAll().where('bot_id', '=', botId).where('query', '=', query).executeTakeFirst();

export async function countTestCases(db: Executor, botId: number): Promise<number> {
  const row = await db
    .selectFrom('test_cases')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('bot_id', '=', botId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const insertTestCases = (db: Executor, botId: number, cases: readonly TestCaseFields[], at: string) =>
  cases.length === 0
    ? Promise.resolve([])
    : db
        .insertInto('test_cases')
        .values(
          cases.map((c) => ({
            bot_id: botId,
            query: c.query,
            expected: c.expected,
            tags: toJson(c.tags),
            source_message_id: c.sourceMessageId ?? null,
            created_at: at,
            updated_at: at,
          })),
        )
        .returningAll()
        .execute();

export const updateTestCase = (db: Executor, id: number, fields: Partial<TestCaseFields>, at: string) =>
  db
    .updateTable('test_cases')
    .set({
      ...(fields.query !== undefined ? { query: fields.query } : {}),
      ...(fields.expected !== undefined ? { expected: fields.expected } : {}),
      ...(fields.tags !== undefined ? { tags: toJson(fields.tags) } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteTestCase = (db: Executor, botId: number, id: number) =>
  db.deleteFrom('test_cases').where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst();

/** A message of a conversation with one of `userId`'s bots (whoever chatted), with what a test case needs. */
export const findReplyOfOwnedBot = (db: Executor, userId: number, messageId: number) =>
  db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .innerJoin('bots', 'bots.id', 'conversations.bot_id')
    .select([
      'messages.id',
      'messages.role',
      'messages.rating',
      'messages.rating_comment',
      'messages.conversation_id',
      'messages.parent_id',
      'conversations.bot_id',
    ])
    .where('messages.id', '=', messageId)
    .where('bots.user_id', '=', userId)
    .executeTakeFirst();

/**
 * The user's message a reply answered: its parent on the branch, or (for replies from before branches) the last
 * user message before it.
 */
export async function findQuestionOf(
  db: Executor,
  reply: { id: number; conversation_id: number; parent_id: number | null },
): Promise<string | undefined> {
  let query = db
    .selectFrom('messages')
    .select('content')
    .where('conversation_id', '=', reply.conversation_id)
    .where('role', '=', 'user');
  query =
    reply.parent_id !== null
      ? query.where('id', '=', reply.parent_id)
      : query.where('id', '<', reply.id).orderBy('id', 'desc').limit(1);
  return (await query.executeTakeFirst())?.content;
}
