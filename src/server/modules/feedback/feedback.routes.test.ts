import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feedback } from '@shared/contracts/feedback';
import { createConversation, messagesOf } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startTestAppWithModel,
  type SignedUp,
  type TestApp,
  withAliceAndBob,
} from '../../../../tests/support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databaseKinds)('POST /api/messages/{id}/feedback on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestAppWithModel({ kind })));
  });
  afterAll(() => t.close());

  /** A conversation of alice's with one question and its reply, written by version 2 of its bot. */
  async function replied() {
    const bot = await createBot(t, alice.token);
    await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body: { config: { tone: 'enthusiastic' } } });
    const conversation = await createConversation(t, alice.token, bot.id);
    const res = await t.request('POST', '/api/bot-message', {
      token: alice.token,
      body: { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Soup tonight?' },
    });
    expect(res.status).toBe(200);
    const [question, reply] = await messagesOf(t, alice.token, conversation.id);
    return { conversation, question: question!, reply: reply! };
  }

  const rate = (id: number, body: unknown, token = alice.token) =>
    t.request<Feedback>('POST', `/api/messages/${id}/feedback`, { token, body });

  it('rates a reply with the version that wrote it, changes the rating, and removes it', async () => {
    const { conversation, reply } = await replied();
    const up = await rate(reply.id, { rating: 'up', comment: '  Just right ' });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      messageId: reply.id,
      rating: 'up',
      comment: 'Just right',
      botVersion: 2,
      ratedAt: expect.stringMatching(ISO),
    });
    const down = await rate(reply.id, { rating: 'down' });
    expect(down.body).toMatchObject({ rating: 'down', comment: null, botVersion: 2 });
    const listed = await t.request<Feedback[]>('GET', `/api/conversations/${conversation.id}/feedback`, {
      token: alice.token,
    });
    expect(listed.body).toEqual([down.body]);

    const removed = await rate(reply.id, { rating: null, comment: 'ignored' });
    expect(removed.body).toEqual({ messageId: reply.id, rating: null, comment: null, botVersion: 2, ratedAt: null });
    const after = await t.request('GET', `/api/conversations/${conversation.id}/feedback`, { token: alice.token });
    expect(after.body).toEqual([]);
  });

  it("answers 404 for another user's message or conversation, and changes nothing", async () => {
    const { conversation, reply } = await replied();
    await rate(reply.id, { rating: 'up' });
    const res = await rate(reply.id, { rating: 'down' }, bob.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'Message not found' });
    expect((await rate(99_999_999, { rating: 'up' })).status).toBe(404);
    const theirs = await t.request('GET', `/api/conversations/${conversation.id}/feedback`, { token: bob.token });
    expect(theirs.status).toBe(404);
    const mine = await t.request<Feedback[]>('GET', `/api/conversations/${conversation.id}/feedback`, {
      token: alice.token,
    });
    expect(mine.body.map((f) => f.rating)).toEqual(['up']);
  });

  it('refuses to rate a question, a bad rating or a long comment', async () => {
    const { question, reply } = await replied();
    const cases: [number, unknown, string][] = [
      [question.id, { rating: 'up' }, 'Only replies can be rated'],
      [reply.id, { rating: 'meh' }, "Rating must be 'up', 'down' or null"],
      [reply.id, {}, "Rating must be 'up', 'down' or null"],
      [reply.id, { rating: 'up', comment: 'x'.repeat(1001) }, 'Comment must be at most 1000 characters'],
    ];
    for (const [id, body, message] of cases) {
      const res = await rate(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ message });
    }
    const anonymous = await t.request('POST', `/api/messages/${reply.id}/feedback`, { body: { rating: 'up' } });
    expect(anonymous.status).toBe(401);
  });
});
