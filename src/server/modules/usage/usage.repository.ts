import { sql, type SelectQueryBuilder } from 'kysely';
import type { UsageRow, UsageTotal } from '@shared/contracts/admin';
import type { Database, Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';

/** bigint columns come back as strings from PostgreSQL. */
const toNumber = (value: unknown) => Number(value ?? 0);

export interface DayTotals {
  tokens: number;
  replies: number;
}

/** Each user's replies and tokens on one day (users with no use are absent). */
export async function sumDayOfUsers(db: Executor, day: string, userIds: number[]): Promise<Map<number, DayTotals>> {
  const totals = new Map<number, DayTotals>();
  if (userIds.length === 0) return totals;
  const rows = await db
    .selectFrom('usage_daily')
    .where('day', '=', day)
    .where('user_id', 'in', userIds)
    .groupBy('user_id')
    .select((eb) => [
      'user_id',
      eb.fn.sum<number | string>('replies').as('replies'),
      eb.fn.sum<number | string>(sql`input_tokens + output_tokens`).as('tokens'),
    ])
    .execute();
  for (const row of rows) totals.set(row.user_id, { replies: toNumber(row.replies), tokens: toNumber(row.tokens) });
  return totals;
}

/** The role and limit columns of one user, for the limit check (before every reply: built once). */
const limitColumns = preparedQuery((db, v: { userId: number }) =>
  db.selectFrom('users').select(['id', 'role', 'daily_token_limit', 'daily_reply_limit']).where('id', '=', v.userId),
);

export const findLimitColumns = async (db: Executor, userId: number) => (await limitColumns(db, { userId }))[0];

// A type, not an interface: prepared queries take their values as a record.
export type UsageIncrement = {
  day: string;
  userId: number;
  botId: number;
  model: string;
  replies: number;
  inputTokens: number;
  outputTokens: number;
  /** Of `replies`, those whose tokens were estimated (the provider reported none). */
  estimatedReplies: number;
};

/** Replies added to their day's row: one statement, whichever instance writes it (after every reply: built once). */
export const addUsage = preparedQuery((db, u: UsageIncrement) =>
  db
    .insertInto('usage_daily')
    .values({
      day: u.day,
      user_id: u.userId,
      bot_id: u.botId,
      model: u.model,
      replies: u.replies,
      input_tokens: u.inputTokens,
      output_tokens: u.outputTokens,
      estimated_replies: u.estimatedReplies,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'day', 'bot_id', 'model']).doUpdateSet((eb) => ({
        replies: eb('usage_daily.replies', '+', eb.ref('excluded.replies')),
        input_tokens: eb('usage_daily.input_tokens', '+', eb.ref('excluded.input_tokens')),
        output_tokens: eb('usage_daily.output_tokens', '+', eb.ref('excluded.output_tokens')),
        estimated_replies: eb('usage_daily.estimated_replies', '+', eb.ref('excluded.estimated_replies')),
      })),
    ),
);

interface UsageTotalRow {
  user_id: number;
  username: string;
  bot_id: number;
  bot_name: string | null;
  model: string;
  replies: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
}

/** A row as reports give it: bot 0 (no bot) reads as null; a deleted bot keeps its id with a null name. */
const toUsageTotal = (row: UsageTotalRow): UsageTotal => ({
  userId: row.user_id,
  username: row.username,
  botId: row.bot_id === 0 ? null : row.bot_id,
  botName: row.bot_name ?? null,
  model: row.model,
  replies: toNumber(row.replies),
  inputTokens: toNumber(row.input_tokens),
  outputTokens: toNumber(row.output_tokens),
});

export interface UsageRange {
  from: string;
  to: string;
  userId?: number;
}

/** The rollup's rows in a range of days (inclusive), of one person or everyone. */
function rowsIn(db: Executor, range: UsageRange): SelectQueryBuilder<Database, 'usage_daily', object> {
  let query = db.selectFrom('usage_daily').where('day', '>=', range.from).where('day', '<=', range.to);
  if (range.userId !== undefined) query = query.where('usage_daily.user_id', '=', range.userId);
  return query;
}

/** Rows per day, user, bot and model in a range of days (inclusive), newest first, with names where they exist. */
export async function findUsageRows(db: Executor, range: UsageRange): Promise<UsageRow[]> {
  const rows = await rowsIn(db, range)
    .innerJoin('users', 'users.id', 'usage_daily.user_id')
    .leftJoin('bots', 'bots.id', 'usage_daily.bot_id')
    .select([
      'usage_daily.day',
      'usage_daily.user_id',
      'users.username',
      'usage_daily.bot_id',
      'bots.name as bot_name',
      'usage_daily.model',
      'usage_daily.replies',
      'usage_daily.input_tokens',
      'usage_daily.output_tokens',
    ])
    .orderBy('usage_daily.day', 'desc')
    .orderBy('users.username')
    .orderBy('usage_daily.bot_id')
    .orderBy('usage_daily.model')
    .execute();
  return rows.map((row) => ({ day: row.day, ...toUsageTotal(row) }));
}

const sums = [
  sql<number | string>`sum(replies)`.as('replies'),
  sql<number | string>`sum(input_tokens)`.as('input_tokens'),
  sql<number | string>`sum(output_tokens)`.as('output_tokens'),
];

/** Replies and tokens per day of the range, for the chart: one row per day that had any. */
export async function sumUsageByDay(db: Executor, range: UsageRange) {
  const rows = await rowsIn(db, range)
    .groupBy('day')
    .select(['day', ...sums])
    .orderBy('day')
    .execute();
  return rows.map((row) => ({
    day: row.day,
    replies: toNumber(row.replies),
    inputTokens: toNumber(row.input_tokens),
    outputTokens: toNumber(row.output_tokens),
  }));
}

/**
 * Replies and tokens per person, bot and model over the range, most tokens first, at most `limit` of them (the
 * report's table): summed in the database, so a range of a million replies answers a few hundred rows.
 */
export async function sumUsageByUserBotModel(db: Executor, range: UsageRange, limit: number) {
  const totals = await rowsIn(db, range)
    .groupBy(['usage_daily.user_id', 'usage_daily.bot_id', 'usage_daily.model'])
    .select(['usage_daily.user_id', 'usage_daily.bot_id', 'usage_daily.model', ...sums])
    .orderBy(sql`sum(input_tokens + output_tokens)`, 'desc')
    .orderBy('usage_daily.user_id')
    .orderBy('usage_daily.bot_id')
    .orderBy('usage_daily.model')
    .limit(limit)
    .as('totals');
  const rows = await db
    .selectFrom(totals)
    .innerJoin('users', 'users.id', 'totals.user_id')
    .leftJoin('bots', 'bots.id', 'totals.bot_id')
    .select([
      'totals.user_id',
      'users.username',
      'totals.bot_id',
      'bots.name as bot_name',
      'totals.model',
      'totals.replies',
      'totals.input_tokens',
      'totals.output_tokens',
    ])
    .orderBy(sql`totals.input_tokens + totals.output_tokens`, 'desc')
    .orderBy('totals.user_id')
    .orderBy('totals.bot_id')
    .orderBy('totals.model')
    .execute();
  return rows.map(toUsageTotal);
}
