/**
 * Conversations at scale (issue 9), over the HTTP API on loopback:
 * - full-text search latency (p50/p95) over 100,000 messages of one user (target p95 < 50 ms);
 * - the newest page of a 1,000-message conversation (what the chat shows first), and the whole of it.
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL names one.
 */
import { sql } from 'kysely';
import type { DatabaseKind } from '../src/server/db/database';
import { indexMessages } from '../src/server/modules/chat/search.repository';
import { createBot } from '../tests/support/factories';
import { signUp, startTestApp, type TestApp } from '../tests/support/test-app';

const CONVERSATIONS = 100;
const MESSAGES_PER_CONVERSATION = 1_000;
const SEARCHES = 200;
const PAGE_FETCHES = 100;
const BATCH = 500;

// A vocabulary with a long tail, so some words are rare and some in most messages.
const WORDS = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 97}`);
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const word = () => WORDS[Math.floor(random() ** 2 * WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed(n: number, call: (i: number) => Promise<Response>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await call(i);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function seed100k(t: TestApp, userId: number, botIds: number[]) {
  const db = t.db.kysely;
  const at = new Date('2025-01-01T00:00:00Z').getTime();
  for (let c = 0; c < CONVERSATIONS; c++) {
    const stamp = new Date(at + c * 60_000).toISOString();
    const conversation = await db
      .insertInto('conversations')
      .values({
        bot_id: botIds[c % botIds.length]!,
        user_id: userId,
        title: sentence(4),
        title_source: 'auto',
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let start = 0; start < MESSAGES_PER_CONVERSATION; start += BATCH) {
      const rows = Array.from({ length: BATCH }, (_, i) => ({
        conversation_id: conversation.id,
        role: (start + i) % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: sentence((start + i) % 2 === 0 ? 12 : 60),
        status: 'complete',
        created_at: stamp,
        updated_at: stamp,
      }));
      await db.insertInto('messages').values(rows).execute();
    }
    // One branch: each message follows the one before it (ids grow within a conversation).
    await sql`update messages set parent_id = (select max(p.id) from messages p
      where p.conversation_id = messages.conversation_id and p.id < messages.id)
      where conversation_id = ${conversation.id}`.execute(db);
  }
}

async function bench(kind: DatabaseKind) {
  const t = await startTestApp({ kind });
  try {
    const me = await signUp(t);
    const bots = [];
    for (let i = 0; i < 10; i++) bots.push((await createBot(t, me.token, { name: `Bench ${i}` })).id);
    const seeding = performance.now();
    await seed100k(t, me.user.id, bots);
    // SQLite: the seeded messages wait for the search indexer (migration 0013); its work is not a search's.
    await indexMessages(t.db);
    // Statistics as the database keeps them (PostgreSQL's autovacuum, within a minute of a bulk load); without
    // them the planner takes 100,000 fresh rows for a few hundred.
    await sql`analyze`.execute(t.db.kysely);
    console.log(
      `${kind}: seeded ${CONVERSATIONS * MESSAGES_PER_CONVERSATION} messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const get = (path: string) => fetch(t.url + path, { headers: { authorization: `Bearer ${me.token}` } });

    const queries = Array.from({ length: SEARCHES }, (_, i) =>
      i % 3 === 0 ? word() : i % 3 === 1 ? `${word()} ${word()}` : word().slice(0, 3),
    );
    const search = await timed(SEARCHES, (i) => get(`/api/conversations/search?q=${encodeURIComponent(queries[i]!)}`));
    const verdict = percentile(search, 0.95) < 50 ? 'meets' : 'MISSES';
    console.log(
      `${kind}: search p50 ${ms(percentile(search, 0.5))}, p95 ${ms(percentile(search, 0.95))} over ${SEARCHES} queries (${verdict} p95 < 50 ms)`,
    );

    const conversation = (await (await get('/api/conversations?limit=1')).json()) as { items: { id: number }[] };
    const id = conversation.items[0]!.id;
    const page = await timed(PAGE_FETCHES, () => get(`/api/conversations/${id}/messages?limit=50`));
    const whole = await timed(20, () => get(`/api/conversations/${id}/messages`));
    console.log(
      `${kind}: newest 50 of a 1,000-message conversation p50 ${ms(percentile(page, 0.5))}, p95 ${ms(percentile(page, 0.95))}; ` +
        `all 1,000 p50 ${ms(percentile(whole, 0.5))}`,
    );
  } finally {
    await t.close();
  }
}

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (postgresUrl) process.env.TEST_DATABASE_URL = postgresUrl;
for (const kind of ['sqlite', ...(postgresUrl ? ['postgres' as const] : [])] as const) await bench(kind);
