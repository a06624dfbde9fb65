import { sql } from 'kysely';
import type { Executor } from '../../db/database';

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
