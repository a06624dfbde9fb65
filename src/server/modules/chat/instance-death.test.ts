import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@shared/contracts/chat';
import { createConversation, deltasOf, openChatStream, readEvents } from '../../../../tests/support/chat-api';
import { anotherConnection, createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { redisTestSpace, TEST_REDIS_URL } from '../../../../tests/support/redis';
import { parsePrometheusText, sampleValue } from '../../../../tests/support/prometheus';
import { databaseUrl, startServerProcess } from '../../../../tests/support/server-process';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

// Well above the 1 s checkpoint, so the sweeper's schedule bounds the end by the stale limit (sweepSchedule).
const STALE_MS = 3000;
const METRICS_TOKEN = 'scrape-me-0123456789';
// The stale limit, and a little for the sweeper's timer and the event's way to the reader on a loaded machine.
const ENDED_WITHIN_MS = STALE_MS + 750;

// Instance A is a real process, to be killed; B serves the same PostgreSQL schema and Redis in this process.
describe.runIf(databaseKinds.includes('postgres'))('a reply whose instance dies', () => {
  const space = redisTestSpace();
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let shared: TestDb;
  let b: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeLlm();
    shared = await createTestDb('postgres');
    env = {
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: fake.model,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: space.prefix,
      CHAT_STALE_REPLY_MS: String(STALE_MS),
      METRICS_TOKEN: METRICS_TOKEN,
    };
    const second = anotherConnection(shared);
    b = await startTestApp({ testDb: second, env });
  });
  afterAll(async () => {
    await b.close();
    await shared.drop();
    await fake.close();
    await space.cleanup();
  });

  it(
    'ends its reader on the surviving instance as interrupted with the saved text, and frees the conversation',
    { timeout: 120_000 },
    async () => {
      const a = await startServerProcess({ ...env, DATABASE_URL: databaseUrl(shared) });
      const { token } = await signUp(a);
      const bot = await createBot(a, token);
      const conversation = await createConversation(a, token, bot.id);
      const path = `/api/conversations/${conversation.id}/stream`;
      // 300 words, one every 20 ms: six seconds of reply, killed after about two.
      const words = Array.from({ length: 300 }, (_, i) => `word${i} `);
      const answer = words.join('');
      fake.enqueue({ text: answer, chunks: words, chunkDelayMs: 20 });
      const onA = await openChatStream(a, path, { token, body: { content: 'Tell me a long story' } });
      await onA.waitFor((e) => e.event === 'delta');

      // B learns of the reply once A has written its first batch of events to Redis (every flushMs): asked before,
      // it rightly answers 204, as it would to a client who came too soon.
      const authorization = `Bearer ${token}`;
      await expect
        .poll(
          async () => {
            const res = await fetch(`${b.url}${path}`, { headers: { authorization } });
            await res.body?.cancel();
            return res.status;
          },
          { timeout: 5_000, interval: 20 },
        )
        .toBe(200);
      // The client lost A and follows the reply through B (as a balancer retries it), from its last event.
      const seenOnA = [...onA.events];
      const reader = fetch(`${b.url}${path}`, {
        headers: { authorization, 'last-event-id': seenOnA.at(-1)!.id! },
      });
      const readerEvents = reader.then((res) => {
        expect(res.status).toBe(200);
        return readEvents(res);
      });
      // Killed once a checkpoint has saved some of the reply.
      await expect
        .poll(
          async () =>
            (await b.request<Message[]>('GET', `/api/conversations/${conversation.id}/messages`, { token })).body.at(-1)
              ?.content,
          { timeout: 5_000, interval: 50 },
        )
        .toMatch(/word/);
      // B counts the reader's stream, and the reply once it marks it.
      const metricsOfB = async () =>
        parsePrometheusText(
          await (await fetch(`${b.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text(),
        );
      // (The looks above closed their streams; B may hear of that a moment later.)
      await expect.poll(async () => sampleValue(await metricsOfB(), 'botty_open_streams')).toBe(1);
      expect(sampleValue(await metricsOfB(), 'botty_redis_up')).toBe(1);
      await a.kill();
      const killedAt = performance.now();
      onA.disconnect();

      const events = await readerEvents;
      const end = events.at(-1)!;
      expect(end.at - killedAt).toBeLessThan(ENDED_WITHIN_MS);
      expect(end).toMatchObject({ event: 'done', data: { role: 'assistant', status: 'interrupted' } });
      const saved = (end.data as Message).content;
      expect(saved.length).toBeGreaterThan(0);
      expect(answer.startsWith(saved)).toBe(true);
      // What the client saw, through A then B, with no gap and no duplicate.
      expect(answer.startsWith(deltasOf([...seenOnA, ...events]).join(''))).toBe(true);

      expect(sampleValue(await metricsOfB(), 'botty_replies_total', { outcome: 'interrupted' })).toBe(1);

      // Asked again, the interrupted reply answers at once, with no Last-Event-ID too.
      const again = await readEvents(await fetch(`${b.url}${path}`, { headers: { authorization: `Bearer ${token}` } }));
      expect(again).toMatchObject([{ event: 'done', data: { status: 'interrupted', content: saved } }]);

      // The dead instance's lock no longer holds the conversation.
      fake.enqueue({ text: 'Here again.' });
      const next = await openChatStream(b, path, { token, body: { content: 'Are you there?' } });
      expect((await next.finished).at(-1)).toMatchObject({ event: 'done', data: { content: 'Here again.' } });
    },
  );
});
