import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_DEGRADED_MEANING } from '../lib/redis';
import { createConversation } from '../../../tests/support/chat-api';
import { anotherConnection, createTestDb, type TestDb } from '../../../tests/support/databases';
import { createBot } from '../../../tests/support/factories';
import { logSink } from '../../../tests/support/log-sink';
import { redisTestSpace, startRedisProxy } from '../../../tests/support/redis';
import { signUp, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { until } from '../../../tests/support/wait';

const LIMIT = 3;
const OVER_THE_LIMIT = [...Array<number>(LIMIT).fill(-1), 429];

// Two instances on one database and one Redis, reached through a proxy the test can cut like a network failure.
describe('rate limits while Redis is away, and after', () => {
  const space = redisTestSpace();
  let proxy: Awaited<ReturnType<typeof startRedisProxy>>;
  let shared: TestDb;
  const logs = [logSink(), logSink()];
  let a: TestApp;
  let b: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let apiKey: string;

  beforeAll(async () => {
    proxy = await startRedisProxy();
    shared = await createTestDb('sqlite');
    const options = {
      env: {
        REDIS_URL: proxy.url,
        REDIS_KEY_PREFIX: space.prefix,
        LOG_LEVEL: 'info',
        TRUST_PROXY: '1',
        RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT),
        RATE_LIMIT_API_KEY_PER_MINUTE: String(LIMIT),
      },
      authRateLimit: undefined,
      chatRateLimit: { max: LIMIT, timeWindow: 60_000 },
    };
    a = await startTestApp({ ...options, testDb: shared, logStream: logs[0]!.stream });
    const second = anotherConnection(shared);
    b = await startTestApp({ ...options, testDb: second, logStream: logs[1]!.stream });
    user = await signUp(a);
    const key = await a.request('POST', '/api/keys', { token: user.token, body: { name: 'limits', botId: null } });
    apiKey = key.body.key;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await proxy.close();
    await space.cleanup();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });
  /** Statuses of `LIMIT + 1` calls, alternating between the instances listed; -1 for any status below 429. */
  async function statuses(apps: TestApp[], call: (t: TestApp, i: number) => Promise<{ status: number }>) {
    const seen = [];
    for (let i = 0; i <= LIMIT; i++) {
      const { status } = await call(apps[i % apps.length]!, i);
      seen.push(status === 429 ? 429 : status < 300 || status === 401 ? -1 : status);
    }
    return seen;
  }
  const wrongSignIn = (address: string) => (t: TestApp) =>
    t.request('POST', '/api/auth/login', {
      body: { username: user.username, password: 'wrong-password' },
      headers: from(address),
    });
  async function modelCalls(apps: TestApp[]) {
    const bot = await createBot(a, user.token);
    const conversation = await createConversation(a, user.token, bot.id);
    return statuses(apps, (t, i) =>
      t.request('POST', '/api/bot-message', {
        token: user.token,
        body: { conversationId: conversation.id, botId: bot.id, userMessageContent: `Question ${i}` },
      }),
    );
  }
  const listModels = (t: TestApp) => t.request('GET', '/v1/models', { headers: { authorization: `Bearer ${apiKey}` } });

  it('still answers 429 for sign-in, model-call and API-key limits, counting on the instance', async () => {
    proxy.cut();
    expect(await statuses([a], wrongSignIn('203.0.113.7'))).toEqual(OVER_THE_LIMIT);
    expect(await modelCalls([a])).toEqual(OVER_THE_LIMIT);
    expect(await statuses([a], listModels)).toEqual(OVER_THE_LIMIT);
    // Per instance: B has counted none of these, and counts its own.
    expect((await wrongSignIn('203.0.113.7')(b)).status).toBe(401);
    expect(logs[0]!.entries().map((e) => e.msg)).toContain(`Redis unavailable: ${REDIS_DEGRADED_MEANING}`);
  });

  it('shares the counts between the instances again once Redis is back', async () => {
    proxy.restore();
    for (const log of logs) {
      await until(() => log.entries().some((e) => e.msg.startsWith('Redis available again')), {
        what: 'the Redis connections to come back',
        timeoutMs: 15_000,
      });
    }
    // Alternating A and B: either alone would allow LIMIT calls; together they allow LIMIT in all.
    expect(await statuses([a, b], wrongSignIn('203.0.113.8'))).toEqual(OVER_THE_LIMIT);
    expect(await modelCalls([a, b])).toEqual(OVER_THE_LIMIT);
  });
});
