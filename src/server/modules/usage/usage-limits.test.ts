import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageReport } from '@shared/contracts/admin';
import { createConversation, openChatStream, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import type { FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, startTestAppWithModel, type SignedUp, type TestApp } from '../../../../tests/support/test-app';
import { startTwoInstances, type TwoInstances } from '../../../../tests/support/two-instances';
import { until } from '../../../../tests/support/wait';

const RESET = /The limit resets at 00:00 UTC \(in (\d+ h )?\d+ min\)\.$/;

/** A 429 past a daily limit: its message, the reset time in the body and Retry-After in seconds to it. */
async function expectLimited(res: Response, message: RegExp) {
  expect(res.status).toBe(429);
  const body = await res.json();
  expect(body.message).toMatch(message);
  expect(body.message).toMatch(RESET);
  const resetsAt = Date.parse(body.resetsAt);
  expect(new Date(resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Math.abs(retryAfter - (resetsAt - Date.now()) / 1000)).toBeLessThan(60);
}

const post = (t: TestApp, path: string, token: string, body: unknown) =>
  fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const setOwnLimits = (t: TestApp, userId: number, limits: { replies?: number | null; tokens?: number | null }) =>
  t.db.kysely
    .updateTable('users')
    .set({ daily_reply_limit: limits.replies ?? null, daily_token_limit: limits.tokens ?? null })
    .where('id', '=', userId)
    .execute();

const repliesToday = async (t: TestApp, token: string) =>
  (await t.request<UsageReport>('GET', '/api/usage', { token })).body.today?.replies;

async function apiKey(t: TestApp, token: string) {
  return (await t.request('POST', '/api/keys', { token, body: { name: 'limits', botId: null } })).body.key as string;
}

describe.each(databaseKinds)('daily limits, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof startTestAppWithModel>>;
  beforeAll(async () => {
    t = await startTestAppWithModel({ kind });
  });
  afterAll(() => t.close());

  async function chatOnce(user: SignedUp, botId: number) {
    const conversation = await createConversation(t, user.token, botId);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, { token: user.token, body: { content: 'Hi' } });
    return conversation;
  }

  it('past the daily reply limit, refuses chat, /v1, training previews and evaluations before the model is asked', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token, { exampleQueries: ['What is new?'] });
    const key = await apiKey(t, alice.token);
    await setOwnLimits(t, alice.user.id, { replies: 1 });
    const conversation = await chatOnce(alice, bot.id);
    await until(async () => (await repliesToday(t, alice.token)) === 1, { what: 'the reply counted' });
    const asked = t.fake.requests.length;

    const used = /^You have used today’s 1 reply\./;
    await expectLimited(
      await post(t, `/api/conversations/${conversation.id}/stream`, alice.token, { content: 'More' }),
      used,
    );
    await expectLimited(await post(t, `/api/conversations/${conversation.id}/regenerate`, alice.token, {}), used);
    await expectLimited(
      await post(t, '/api/bots/preview-answers', alice.token, {
        bot: {
          name: 'Draft',
          description: 'A draft',
          purpose: 'planning',
          capabilities: [],
          config: { tone: 'friendly' },
        },
        queries: ['One?'],
      }),
      used,
    );
    await expectLimited(await post(t, `/api/bots/${bot.id}/evaluations`, alice.token, {}), used);
    // Nothing was started: no evaluation is left behind.
    expect((await t.request('GET', `/api/bots/${bot.id}/evaluations`, { token: alice.token })).body).toEqual([]);

    const completion = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bot-${bot.id}`, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(completion.status).toBe(429);
    expect(Number(completion.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = await completion.json();
    expect(error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(error.message).toMatch(used);

    expect(t.fake.requests.length).toBe(asked);
  });

  it('tells a shared bot’s guest that the owner’s limit is reached, without the owner’s numbers', async () => {
    const owner = await signUp(t);
    const guest = await signUp(t);
    const bot = await createBot(t, owner.token);
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: owner.token, body: { visibility: 'link' } });
    const link = await t.request('POST', `/api/bots/${bot.id}/share-link`, { token: owner.token });
    await t.request('GET', `/api/shared/bots/${link.body.slug}`, { token: guest.token });
    await setOwnLimits(t, owner.user.id, { replies: 1 });
    const conversation = await chatOnce(guest, bot.id);
    await until(async () => (await repliesToday(t, owner.token)) === 1, { what: 'the reply counted' });

    const refused = await post(t, `/api/conversations/${conversation.id}/stream`, guest.token, { content: 'Again' });
    await expectLimited(refused.clone(), /^This bot’s owner has reached their daily reply limit\./);
    expect((await refused.json()).message).not.toMatch(/\d+ repl/);
  });

  it('gives back the place of a request refused after admission (a reply already running)', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    await setOwnLimits(t, alice.user.id, { replies: 2 });
    const conversation = await createConversation(t, alice.token, bot.id);
    t.fake.enqueue({ text: 'slow answer that hangs', hangAfterChunks: 1 });
    const path = `/api/conversations/${conversation.id}/stream`;
    const running = await openChatStream(t, path, { token: alice.token, body: { content: 'Slowly' } });
    await running.waitFor((e) => e.event === 'delta');
    expect((await post(t, path, alice.token, { content: 'Twice' })).status).toBe(409);
    await t.request('POST', `/api/conversations/${conversation.id}/stop`, { token: alice.token });
    await running.finished;
    await until(async () => (await repliesToday(t, alice.token)) === 1, { what: 'the stopped reply counted' });

    const second = await post(t, path, alice.token, { content: 'Once more' });
    expect(second.status).toBe(200);
    await second.text();
  });

  it('stops at the daily token limit too', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    await setOwnLimits(t, alice.user.id, { tokens: 5 });
    const conversation = await chatOnce(alice, bot.id);
    await until(async () => (await repliesToday(t, alice.token)) === 1, { what: 'the reply counted' });
    await expectLimited(
      await post(t, `/api/conversations/${conversation.id}/stream`, alice.token, { content: 'More' }),
      /^You have used today’s 5 tokens\./,
    );
  });

  it('follows the role’s default when the person has no limit of their own, and their own over it', async () => {
    const admin = await signUp(t);
    await t.db.kysely.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    const setDefault = (dailyReplies: number | null) =>
      t.request('PATCH', '/api/admin/settings', {
        token: admin.token,
        body: { defaultLimits: { user: { dailyReplies } } },
      });
    try {
      await setDefault(1);
      const conversation = await chatOnce(alice, bot.id);
      await until(async () => (await repliesToday(t, alice.token)) === 1, { what: 'the reply counted' });
      const again = () => post(t, `/api/conversations/${conversation.id}/stream`, alice.token, { content: 'More' });
      await expectLimited(await again(), /1 reply/);
      await setOwnLimits(t, alice.user.id, { replies: 10 });
      const allowed = await again();
      expect(allowed.status).toBe(200);
      await allowed.text();
    } finally {
      await setDefault(null);
    }
  });
});

// Two instances behind a load balancer: one PostgreSQL, one Redis.
describe.runIf(databaseKinds.includes('postgres'))('daily limits on two instances sharing PostgreSQL and Redis', () => {
  let instances: TwoInstances;
  let fake: FakeLlm;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ fake, a, b } = instances);
  });
  afterAll(() => instances.close());

  it('counts a reply in progress on A when B checks, and the finished one afterwards', async () => {
    const alice = await signUp(a);
    const bot = await createBot(a, alice.token);
    const key = await apiKey(a, alice.token);
    await setOwnLimits(a, alice.user.id, { replies: 1 });
    const first = await createConversation(a, alice.token, bot.id);
    const second = await createConversation(a, alice.token, bot.id);
    fake.enqueue({ text: 'a long answer that hangs', hangAfterChunks: 1 });
    const onA = await openChatStream(a, `/api/conversations/${first.id}/stream`, {
      token: alice.token,
      body: { content: 'Take your time' },
    });
    await onA.waitFor((e) => e.event === 'delta');

    // Nothing is in usage_daily yet: B refuses because A's reply holds the last place.
    expect(await repliesToday(b, alice.token)).toBe(0);
    const used = /^You have used today’s 1 reply\./;
    await expectLimited(await post(b, `/api/conversations/${second.id}/stream`, alice.token, { content: 'Too' }), used);

    await a.request('POST', `/api/conversations/${first.id}/stop`, { token: alice.token });
    await onA.finished;
    await until(async () => (await repliesToday(b, alice.token)) === 1, { what: 'the stopped reply counted' });
    await expectLimited(await post(b, `/api/conversations/${second.id}/stream`, alice.token, { content: 'Too' }), used);
    const completion = await fetch(`${b.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bot-${bot.id}`, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(completion.status).toBe(429);
    expect(fake.requests).toHaveLength(1);
  });
});
