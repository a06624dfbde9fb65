/**
 * Usage at a million replies (issue 23): usage_daily as 1,000 people × 90 days × 2 bots × 2 models leave it
 * (360,000 rows, ~1.1 million replies), and what reads and writes it cost:
 * - the daily-limit check for one person (their today's totals and limits: what every reply waits for);
 * - the admin report of the last 30 days, everyone (120,000 rows summed per day and per person, bot and model
 *   by the database, as GET /api/admin/usage does);
 * - one reply's upsert (what each reply writes when it ends).
 * Beside the floor: a primary-key read of one row of the same table. SQLite always; PostgreSQL too when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names one.
 */
import { sql } from 'kysely';
import type { DatabaseKind } from '../src/server/db/database';
import { addUsage, findLimitColumns } from '../src/server/modules/usage/usage.repository';
import { usageReport, usageTodayFor, utcDay } from '../src/server/modules/usage/usage.service';
import { createTestDb } from '../tests/support/databases';

const USERS = 1_000;
const DAYS = 90;
const BOTS = [1, 2];
const MODELS = ['0/small-model', '1/large-model'];
const BATCH = 1_000;
const RUNS = { check: 500, report: 10, upsert: 500, floor: 500 };
const DAY_MS = 86_400_000;

let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const ms = (n: number) => (n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(2)} ms`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function timed(n: number, run: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function bench(kind: DatabaseKind) {
  const testDb = await createTestDb(kind);
  const { db } = testDb;
  try {
    const now = new Date();
    const clock = { now: () => now };
    const seeding = performance.now();
    const at = now.toISOString();
    const userIds: number[] = [];
    for (let start = 0; start < USERS; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, i) => ({
        username: `bench${start + i}`,
        email: `bench${start + i}@example.com`,
        password_hash: 'x',
        role: 'user',
        email_verified: true,
        created_at: at,
        updated_at: at,
      }));
      userIds.push(...(await db.kysely.insertInto('users').values(rows).returning('id').execute()).map((r) => r.id));
    }
    let rows: Parameters<typeof insertRows>[0] = [];
    let replies = 0;
    async function insertRows(
      batch: {
        day: string;
        user_id: number;
        bot_id: number;
        model: string;
        replies: number;
        input_tokens: number;
        output_tokens: number;
      }[],
    ) {
      await db.kysely.insertInto('usage_daily').values(batch).execute();
    }
    for (let d = 0; d < DAYS; d++) {
      const day = utcDay(new Date(now.getTime() - d * DAY_MS));
      for (const userId of userIds) {
        for (const botId of BOTS) {
          for (const model of MODELS) {
            const count = 1 + Math.floor(random() * 5);
            replies += count;
            rows.push({
              day,
              user_id: userId,
              bot_id: botId,
              model,
              replies: count,
              input_tokens: count * 800,
              output_tokens: count * 300,
            });
            if (rows.length === BATCH) {
              await insertRows(rows);
              rows = [];
            }
          }
        }
      }
    }
    if (rows.length) await insertRows(rows);
    await sql`analyze`.execute(db.kysely);
    const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
    console.log(
      `${kind}: ${USERS * DAYS * BOTS.length * MODELS.length} rows for ${replies.toLocaleString('en-US')} replies, seeded in ${seeded} s`,
    );

    const deps = { db, clock };
    const pick = (i: number) => userIds[(i * 7919) % userIds.length]!;
    const today = utcDay(now);
    const floor = await timed(RUNS.floor, (i) =>
      db.kysely
        .selectFrom('usage_daily')
        .selectAll()
        .where('user_id', '=', pick(i))
        .where('day', '=', today)
        .where('bot_id', '=', 1)
        .where('model', '=', MODELS[0]!)
        .executeTakeFirst(),
    );
    const check = await timed(RUNS.check, async (i) => {
      const user = await findLimitColumns(db.kysely, pick(i));
      return usageTodayFor(deps, [user!]);
    });
    const report = await timed(RUNS.report, () => usageReport(deps, {}));
    const upsert = await timed(RUNS.upsert, (i) =>
      addUsage(db.kysely, {
        day: today,
        userId: pick(i),
        botId: BOTS[i % BOTS.length]!,
        model: MODELS[i % MODELS.length]!,
        replies: 1,
        inputTokens: 800,
        outputTokens: 300,
        estimatedReplies: 0,
      }),
    );
    const line = (name: string, times: number[]) =>
      console.log(
        `${kind}: ${name.padEnd(38)} p50 ${ms(percentile(times, 0.5)).padStart(9)}  p95 ${ms(percentile(times, 0.95)).padStart(9)}` +
          `  (${(percentile(times, 0.5) / percentile(floor, 0.5)).toFixed(1)}× the floor)`,
      );
    line('floor: one row by primary key', floor);
    line('limit check, one person (3 queries)', check);
    line('admin report, 30 days, everyone', report);
    line('one reply’s upsert', upsert);
  } finally {
    await testDb.drop();
  }
}

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (postgresUrl) process.env.TEST_DATABASE_URL = postgresUrl;
for (const kind of ['sqlite', ...(postgresUrl ? ['postgres' as const] : [])] as const) await bench(kind);
