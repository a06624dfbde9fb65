import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '@shared/contracts/chat';
import { REDIS_DEGRADED_MEANING } from '../../lib/redis';
import { createConversation, openChatStream } from '../../../../tests/support/chat-api';
import { anotherConnection, createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { logSink } from '../../../../tests/support/log-sink';
import { redisTestSpace, startRedisProxy, TEST_REDIS_URL } from '../../../../tests/support/redis';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

const WARN = 40;

// A reaches Redis directly; B through a proxy the test cuts, as when Redis restarts or the network fails.
describe.runIf(databaseKinds.includes('postgres'))('an instance losing Redis', () => {
  const space = redisTestSpace();
  const log = logSink();
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let proxy: Awaited<ReturnType<typeof startRedisProxy>>;
  let shared: TestDb;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    fake = await startFakeLlm();
    proxy = await startRedisProxy();
    shared = await createTestDb('postgres');
    const env = {
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: fake.model,
      REDIS_KEY_PREFIX: space.prefix,
      LOG_LEVEL: 'info',
    };
    a = await startTestApp({ testDb: shared, env: { ...env, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent' } });
    const second = anotherConnection(shared);
    b = await startTestApp({ testDb: second, env: { ...env, REDIS_URL: proxy.url }, logStream: log.stream });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await proxy.close();
    await fake.close();
    await space.cleanup();
  });

  const warnings = () => log.entries().filter((entry) => entry.level === WARN);
  const backLines = () => log.entries().filter((entry) => entry.msg.startsWith('Redis available again'));

  it('warns once, says degraded, tells a Stop it cannot reach the reply, and says once when Redis is back', async () => {
    const { token } = await signUp(a);
    const bot = await createBot(a, token);
    const conversation = await createConversation(a, token, bot.id);
    const words = Array.from({ length: 100 }, (_, i) => `w${i} `);
    fake.enqueue({ text: words.join(''), chunks: words, chunkDelayMs: 30 });
    const onA = await openChatStream(a, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'A long answer please' },
    });
    await onA.waitFor((e) => e.event === 'delta');
    expect(warnings()).toEqual([]);

    proxy.cut();
    await until(async () => (await b.request('GET', '/api/health/ready')).body.redis === 'degraded', {
      what: 'B to notice Redis is away',
    });
    expect(await b.request('GET', '/api/health/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', database: 'up', redis: 'degraded', notes: [expect.stringContaining('Stop')] },
    });
    // Everything that uses Redis on B: sessions, rate limits, Stop.
    expect((await b.request('POST', '/api/auth/login', { body: { username: 'nobody', password: 'x' } })).status).toBe(
      401,
    );
    expect(await b.request('POST', `/api/conversations/${conversation.id}/stop`, { token })).toMatchObject({
      status: 200,
      body: { stopped: false, message: CHAT_MESSAGES.stopUnreachable },
    });
    // A's reply runs on, unstopped.
    expect((await onA.finished).at(-1)).toMatchObject({ event: 'done', data: { status: 'complete' } });

    expect(warnings().map((entry) => entry.msg)).toEqual([`Redis unavailable: ${REDIS_DEGRADED_MEANING}`]);
    // The reason, without a stack trace.
    expect(warnings()[0]).toMatchObject({ error: expect.any(String) });
    expect(warnings()[0]!.err).toBeUndefined();

    proxy.restore();
    await until(() => backLines().length > 0, { what: 'B to say Redis is back', timeoutMs: 15_000 });
    expect((await b.request('GET', '/api/health/ready')).body).toMatchObject({ redis: 'up', notes: [] });
    expect((await b.request('POST', `/api/conversations/${conversation.id}/stop`, { token })).body).toEqual({
      stopped: false,
    });
    expect(warnings()).toHaveLength(1);
    expect(backLines()).toHaveLength(1);
  });
});
