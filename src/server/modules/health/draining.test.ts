import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, deltasOf, openChatStream } from '../../../../tests/support/chat-api';
import { createTestDb, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { databaseUrl, startServerProcess } from '../../../../tests/support/server-process';
import { signUp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

describe('an instance told to stop (SIGTERM)', () => {
  let testDb: TestDb;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  beforeAll(async () => {
    testDb = await createTestDb('sqlite');
    await testDb.db.close();
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake.close();
    await testDb.drop();
  });

  it(
    'answers readiness with 503, refuses new requests, lets its running reply finish, then exits',
    { timeout: 120_000 },
    async () => {
      const server = await startServerProcess({
        DATABASE_URL: databaseUrl(testDb),
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: fake.model,
      });
      const { token } = await signUp(server);
      const bot = await createBot(server, token);
      const conversation = await createConversation(server, token, bot.id);
      expect(await server.request('GET', '/api/health/ready')).toMatchObject({
        status: 200,
        body: { status: 'ready', database: 'up', redis: 'none', notes: [] },
      });
      // 100 words, one every 20 ms: two seconds of reply, well within the drain's ten.
      const words = Array.from({ length: 100 }, (_, i) => `word${i} `);
      fake.enqueue({ text: words.join(''), chunks: words, chunkDelayMs: 20 });
      const stream = await openChatStream(server, `/api/conversations/${conversation.id}/stream`, {
        token,
        body: { content: 'Tell me a story' },
      });
      await stream.waitFor((e) => e.event === 'delta');

      const exited = server.stop();
      await until(async () => (await server.request('GET', '/api/health/ready')).status === 503, {
        what: 'readiness to say draining',
      });
      expect((await server.request('GET', '/api/health/ready')).body).toMatchObject({ status: 'draining' });
      expect(await server.request('GET', '/api/bots', { token })).toMatchObject({
        status: 503,
        body: { code: 'UNAVAILABLE' },
      });

      const events = await stream.finished;
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', content: words.join('') } });
      expect(deltasOf(events).join('')).toBe(words.join(''));
      expect(await exited).toBe(0);
    },
  );
});
