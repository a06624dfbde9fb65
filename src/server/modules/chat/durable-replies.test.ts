import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesOf, openChatStream, createConversation, deltasOf } from '../../../../tests/support/chat-api';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { databaseUrl, startServerProcess } from '../../../../tests/support/server-process';
import { signUp } from '../../../../tests/support/test-app';
import { REPLY_CHECKPOINT_MS } from '../replies/reply-store';

describe.each(databaseKinds)('a reply survives its server being killed, on %s', (kind) => {
  let testDb: TestDb;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  beforeAll(async () => {
    testDb = await createTestDb(kind);
    await testDb.db.close();
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake.close();
    await testDb.drop();
  });

  it('keeps what had streamed, marked interrupted, after a SIGKILL and a restart', { timeout: 180_000 }, async () => {
    const env = {
      DATABASE_URL: databaseUrl(testDb),
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: fake.model,
      CHAT_STALE_REPLY_MS: '2000',
    };
    const first = await startServerProcess(env);
    const { token } = await signUp(first);
    const bot = await createBot(first, token);
    const conversation = await createConversation(first, token, bot.id);
    // 200 words, one every 20 ms: four seconds of reply, of which the test sees about two.
    const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
    fake.enqueue({ text: words.join(''), chunks: words, chunkDelayMs: 20 });
    const stream = await openChatStream(first, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'Tell me a long story' },
    });
    const start = await stream.waitFor((e) => e.event === 'start');
    // Killed once a checkpoint has saved some of the reply (the first comes within a second).
    await expect
      .poll(async () => (await messagesOf(first, token, conversation.id)).at(-1)?.content, {
        timeout: 5_000,
        interval: 50,
      })
      .toMatch(/word/);
    const seen = deltasOf(stream.events).join('');
    const killedAt = performance.now();
    await first.kill();
    stream.disconnect();
    expect(seen.length).toBeGreaterThan(0);

    const second = await startServerProcess(env);
    try {
      let reply;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
        reply = (await messagesOf(second, token, conversation.id)).find((m) => m.role === 'assistant');
        if (reply?.status === 'interrupted') break;
      }
      expect(reply).toMatchObject({ id: (start.data as { messageId: number }).messageId, status: 'interrupted' });
      // Checkpoints come every second: at most the last second of text is lost. Counted in time, not words: on a
      // loaded machine the words arrive in bursts. Half a second more for the last checkpoint's write.
      expect(seen.startsWith(reply!.content)).toBe(true);
      const older = deltasOf(stream.events.filter((e) => e.at <= killedAt - REPLY_CHECKPOINT_MS - 500)).join('');
      expect(reply!.content.length).toBeGreaterThanOrEqual(older.length);
      expect(reply!.content.length).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });
});
