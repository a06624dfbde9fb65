import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '@shared/contracts/insights';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startTestApp, type SignedUp, type TestApp, withAliceAndBob } from '../../../../tests/support/test-app';

const NOW = '2025-03-10T12:00:00.000Z';

describe.each(databaseKinds)('GET /api/bots/{id}/insights on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestApp({ kind, clock: { now: () => new Date(NOW) } })));
  });
  afterAll(() => t.close());

  async function conversation(botId: number, userId: number, at: string) {
    return t.db.kysely
      .insertInto('conversations')
      .values({ bot_id: botId, user_id: userId, title: 'Seeded', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  type Seeded = {
    at: string;
    role?: 'user' | 'assistant';
    status?: string;
    firstTokenMs?: number;
    replyMs?: number;
    tokens?: [number, number];
    rating?: 'up' | 'down';
  };
  async function message(conversationId: number, m: Seeded) {
    await t.db.kysely
      .insertInto('messages')
      .values({
        conversation_id: conversationId,
        parent_id: null,
        role: m.role ?? 'assistant',
        content: 'seeded',
        status: m.status ?? 'complete',
        created_at: m.at,
        updated_at: m.at,
        first_token_ms: m.firstTokenMs ?? null,
        reply_ms: m.replyMs ?? null,
        input_tokens: m.tokens?.[0] ?? null,
        output_tokens: m.tokens?.[1] ?? null,
        rating: m.rating ?? null,
      })
      .execute();
  }

  it('counts exactly what was seeded in the window, per day and in total', async () => {
    const bot = await createBot(t, alice.token);
    const other = await createBot(t, alice.token);
    const today = await conversation(bot.id, alice.user.id, '2025-03-10T08:00:00.000Z');
    const earlier = await conversation(bot.id, alice.user.id, '2025-03-08T23:59:59.000Z');
    const tooOld = await conversation(bot.id, alice.user.id, '2025-03-03T10:00:00.000Z');
    const otherBot = await conversation(other.id, alice.user.id, '2025-03-10T09:00:00.000Z');
    await message(today.id, { at: '2025-03-10T08:00:01.000Z', role: 'user' });
    await message(today.id, {
      at: '2025-03-10T08:00:02.000Z',
      firstTokenMs: 300,
      replyMs: 2000,
      tokens: [100, 40],
      rating: 'up',
    });
    await message(today.id, { at: '2025-03-10T08:01:00.000Z', role: 'user' });
    await message(today.id, {
      at: '2025-03-10T08:01:01.000Z',
      status: 'stopped',
      firstTokenMs: 500,
      replyMs: 900,
      rating: 'down',
    });
    await message(earlier.id, { at: '2025-03-08T23:59:59.500Z', role: 'user' });
    await message(earlier.id, {
      at: '2025-03-09T00:00:01.000Z',
      status: 'failed',
      firstTokenMs: 100,
      tokens: [10, 0],
      rating: 'up',
    });
    await message(tooOld.id, { at: '2025-03-03T10:00:01.000Z', firstTokenMs: 9999, rating: 'down' });
    await message(otherBot.id, { at: '2025-03-10T09:00:01.000Z', rating: 'down' });
    await t.db.kysely
      .insertInto('evaluations')
      .values([
        { bot_id: bot.id, bot_version: 1, status: 'done', total: 4, created_at: NOW, updated_at: NOW },
        { bot_id: bot.id, bot_version: 1, status: 'cancelled', total: 4, created_at: NOW, updated_at: NOW },
      ])
      .execute();
    const [done] = await t.db.kysely
      .selectFrom('evaluations')
      .select('id')
      .where('bot_id', '=', bot.id)
      .orderBy('id')
      .execute();
    await t.db.kysely
      .insertInto('evaluation_results')
      .values(
        ['pass', 'pass', 'pass', 'fail'].map((verdict, ord) => ({
          evaluation_id: done!.id,
          ord,
          query: `Q${ord}`,
          answer: 'A',
          verdict: verdict as 'pass' | 'fail',
          reason: 'r',
          error: null,
        })),
      )
      .execute();

    const res = await t.request<Insights>('GET', `/api/bots/${bot.id}/insights?days=7`, { token: alice.token });
    expect(res.status).toBe(200);
    const zero = { conversations: 0, messages: 0, replies: 0 };
    expect(res.body).toEqual({
      days: 7,
      from: '2025-03-04',
      to: '2025-03-10',
      perDay: [
        { date: '2025-03-04', ...zero },
        { date: '2025-03-05', ...zero },
        { date: '2025-03-06', ...zero },
        { date: '2025-03-07', ...zero },
        { date: '2025-03-08', conversations: 1, messages: 1, replies: 0 },
        { date: '2025-03-09', conversations: 0, messages: 0, replies: 1 },
        { date: '2025-03-10', conversations: 1, messages: 2, replies: 2 },
      ],
      totals: { conversations: 2, messages: 3, replies: 3 },
      medianFirstTokenMs: 300,
      medianReplyMs: 1450,
      failedReplies: 1,
      stoppedReplies: 1,
      ratings: { up: 2, down: 1 },
      tokens: { input: 110, output: 40 },
      faithfulness: null,
      testPassRates: [{ version: 1, passed: 3, total: 4, at: NOW }],
    });

    const month = await t.request<Insights>('GET', `/api/bots/${bot.id}/insights`, { token: alice.token });
    expect(month.body).toMatchObject({ days: 30, from: '2025-02-09', totals: { conversations: 3, replies: 4 } });
    expect(month.body.perDay).toHaveLength(30);
  });

  it('answers empty numbers for an unused bot', async () => {
    const bot = await createBot(t, alice.token);
    const res = await t.request<Insights>('GET', `/api/bots/${bot.id}/insights?days=1`, { token: alice.token });
    expect(res.body).toMatchObject({
      perDay: [{ date: '2025-03-10', conversations: 0, messages: 0, replies: 0 }],
      medianFirstTokenMs: null,
      medianReplyMs: null,
      tokens: null,
      testPassRates: [],
    });
  });

  it("answers 404 for another user's bot and 400 for a bad number of days", async () => {
    const bot = await createBot(t, alice.token);
    const theirs = await t.request('GET', `/api/bots/${bot.id}/insights`, { token: bob.token });
    expect(theirs.status).toBe(404);
    for (const days of ['0', '366', 'x', '1.5']) {
      const res = await t.request('GET', `/api/bots/${bot.id}/insights?days=${days}`, { token: alice.token });
      expect(res.status, days).toBe(400);
      expect(res.body.message).toBe('days must be a whole number from 1 to 365');
    }
  });
});
