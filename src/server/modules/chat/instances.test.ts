import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser, expectError, login } from '../../../../tests/support/auth-api';
import {
  createConversation,
  deltasOf,
  messagesOf,
  openChatStream,
  readEvents,
} from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import type { FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { startTwoInstances, type TwoInstances } from '../../../../tests/support/two-instances';
import { CHAT_MESSAGES } from '@shared/contracts/chat';

// Two instances, as behind a load balancer: one PostgreSQL schema, one Redis, nothing else shared.
describe.runIf(databaseKinds.includes('postgres'))('two instances on one PostgreSQL and Redis', () => {
  let instances: TwoInstances;
  let fake: FakeLlm;
  let a: TestApp;
  let b: TestApp;
  let token: string;
  let botId: number;

  beforeAll(async () => {
    instances = await startTwoInstances({ chatRateLimit: { max: 6, timeWindow: 60_000 } });
    ({ fake, a, b } = instances);
    ({ token } = await signUp(a));
    botId = (await createBot(a, token)).id;
  });
  afterAll(() => instances.close());

  it('refuses a second reply on B while A writes one, stops A’s reply from B, and resumes it on B', async () => {
    const conversation = await createConversation(a, token, botId);
    const words = Array.from({ length: 30 }, (_, i) => `w${i} `);
    fake.enqueue({ text: words.join(''), chunks: words, chunkDelayMs: 40 });
    const onA = await openChatStream(a, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'Long answer please' },
    });
    await onA.waitFor((e) => e.event === 'delta');

    // The conversation lock is shared.
    expectError(
      await b.request('POST', `/api/conversations/${conversation.id}/stream`, { token, body: { content: 'Again' } }),
      409,
      CHAT_MESSAGES.replyRunning,
    );

    // A client that lost A reconnects through B and gets the rest, with no gap and no duplicate.
    await onA.waitFor((e) => e.event === 'delta' && deltasOf(onA.events).length >= 5);
    onA.disconnect();
    const seen = [...onA.events];
    const resumedRes = await fetch(`${b.url}/api/conversations/${conversation.id}/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': seen.at(-1)!.id! },
    });
    expect(resumedRes.status).toBe(200);

    // Stop through B while B's client follows: A's reply ends, saved as stopped.
    const stopper = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return b.request('POST', `/api/conversations/${conversation.id}/stop`, { token });
    })();
    const rest = await readEvents(resumedRes);
    expect((await stopper).body).toEqual({ stopped: true });
    const all = [...seen, ...rest];
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const ids = all.map((e) => Number(e.id!.split('-').at(-1)));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    const text = deltasOf(all).join('');
    expect(text.length).toBeLessThan(words.join('').length);
    const saved = (await messagesOf(b, token, conversation.id)).at(-1)!;
    expect(saved).toMatchObject({ role: 'assistant', status: 'stopped', content: text });
  });

  it('signs out, changes passwords and profiles on every instance, long before a remembered session expires', async () => {
    const user = await signUp(a);
    const other = await login(a, user.username, user.password);
    // B remembers both sessions (SESSION_CACHE_MS, 5 s by default).
    for (const t of [user.token, other.body.token]) expect((await currentUser(b, t)).status).toBe(200);
    // The notice reaches B through Redis, which takes a moment: well within this, and far from the 5 s.
    const soon = { timeout: 1000, interval: 20 };

    expect(
      (await a.request('PATCH', '/api/auth/profile', { token: user.token, body: { fullName: 'Ada' } })).status,
    ).toBe(200);
    await expect.poll(async () => (await currentUser(b, user.token)).body.fullName, soon).toBe('Ada');

    const newPassword = 'another-horse-battery';
    const changed = await a.request('POST', '/api/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword },
    });
    expect(changed.status).toBe(200);
    await expect.poll(async () => (await currentUser(b, other.body.token)).status, soon).toBe(401);
    expect((await currentUser(b, user.token)).status).toBe(200);

    expect((await a.request('POST', '/api/auth/logout', { token: user.token })).status).toBe(200);
    await expect.poll(async () => (await currentUser(b, user.token)).status, soon).toBe(401);
  });

  it('counts the per-user model-call limit across instances', async () => {
    const other = await signUp(a);
    const bot = await createBot(a, other.token);
    const conversation = await createConversation(a, other.token, bot.id);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const app = i % 2 ? b : a;
      const res = await app.request('POST', '/api/bot-message', {
        token: other.token,
        body: { conversationId: conversation.id, botId: bot.id, userMessageContent: `Question ${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});
