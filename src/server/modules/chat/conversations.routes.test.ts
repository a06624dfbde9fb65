import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHAT_MESSAGES } from '@shared/contracts/chat';
import { offlineReplyText } from '../../ai/tasks/chat-reply';
import { expectError, expectValidation, startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, deltasOf, messagesOf, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot, steppingClock } from '../../../../tests/support/factories';
import { signUp, startTestApp, type SignedUp, type TestApp, withAliceAndBob } from '../../../../tests/support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** With no LLM_* variables the app is offline, which these tests use as a model that always answers. */
describe.each(databaseKinds)('conversations and messages API on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startCheckedApp({ kind, clock: steppingClock() })));
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, token = alice.token) => t.request('POST', path, { token, body });

  it('requires a signed-in caller on every chat route', async () => {
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/conversations', { botId: 1 }],
      ['GET', '/api/bots/1/conversations'],
      ['GET', '/api/conversations/1'],
      ['PATCH', '/api/conversations/1', { title: 'x' }],
      ['DELETE', '/api/conversations/1'],
      ['GET', '/api/conversations/1/messages'],
      ['POST', '/api/messages', { conversationId: 1, content: 'hi', role: 'user' }],
      ['POST', '/api/bot-message', { conversationId: 1, botId: 1, userMessageContent: 'hi' }],
      ['POST', '/api/conversations/1/stream', { content: 'hi' }],
      ['POST', '/api/conversations/1/regenerate'],
      ['POST', '/api/conversations/1/stop'],
      ['GET', '/api/chat/status'],
    ];
    for (const [method, path, body] of calls) {
      expectError(await t.request(method, path, { body, token: 'not-a-real-token' }), 401, 'Authentication required');
    }
  });

  it("creates a conversation titled after the bot, owned by the caller whatever the body's userId", async () => {
    const bot = await createBot(t, alice.token, { name: 'Trip Buddy' });
    const res = await post('/api/conversations', { botId: bot.id, userId: 1, title: '   ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      botId: bot.id,
      userId: alice.user.id,
      title: 'Conversation with Trip Buddy',
      titleSource: 'default',
      createdAt: expect.stringMatching(ISO),
      updatedAt: res.body.createdAt,
    });
    // Read alone, it names its bot too.
    expect((await t.request('GET', `/api/conversations/${res.body.id}`, { token: alice.token })).body).toEqual({
      ...res.body,
      bot: { id: bot.id, name: 'Trip Buddy', icon: bot.icon },
    });
    await post('/api/messages', { conversationId: res.body.id, content: 'Hi' });
    const named = await post('/api/conversations', { botId: bot.id, title: '  Packing list ' });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ title: 'Packing list', titleSource: 'user' });
  });

  it('reuses the latest conversation while it is empty, and records the chat at its first message', async () => {
    const bot = await createBot(t, alice.token, { name: 'Meal Planner' });
    const activities = async () =>
      (await t.request('GET', `/api/users/${alice.user.id}/activities`, { token: alice.token })).body.filter(
        (a: { type: string; botId: number }) => a.type === 'chat_started' && a.botId === bot.id,
      );
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push(await post('/api/conversations', { botId: bot.id }));
    expect(opened.map((r) => r.status)).toEqual([201, 200, 200, 200, 200]);
    expect(new Set(opened.map((r) => r.body.id)).size).toBe(1);
    expect(await activities()).toEqual([]);

    await post('/api/messages', { conversationId: opened[0]!.body.id, content: 'What is for dinner?' });
    await post('/api/messages', { conversationId: opened[0]!.body.id, content: 'And lunch?' });
    expect(await activities()).toEqual([
      expect.objectContaining({ description: 'Started a chat with Meal Planner', botId: bot.id }),
    ]);
    const next = await post('/api/conversations', { botId: bot.id });
    expect(next.status).toBe(201);
    expect(next.body.id).not.toBe(opened[0]!.body.id);
    const list = await t.request('GET', `/api/bots/${bot.id}/conversations`, { token: alice.token });
    expect(list.body).toHaveLength(2);
  });

  it('refuses a conversation with an inactive bot, a missing bot, or no bot at all', async () => {
    const bot = await createBot(t, alice.token, { active: false });
    const inactive = await post('/api/conversations', { botId: bot.id });
    expectError(inactive, 409, CHAT_MESSAGES.botInactive);
    expectError(await post('/api/conversations', { botId: 999_999 }), 404, 'Bot not found');
    expectValidation(await post('/api/conversations', { title: 'x' }), 'botId', CHAT_MESSAGES.botRequired);
    expectValidation(await post('/api/conversations', { botId: 'one' }), 'botId', CHAT_MESSAGES.botRequired);
    expectValidation(
      await post('/api/conversations', { botId: 1, title: 'x'.repeat(121) }),
      'title',
      CHAT_MESSAGES.titleMax,
    );
    const list = await t.request('GET', `/api/bots/${bot.id}/conversations`, { token: alice.token });
    expect(list.body).toEqual([]);
  });

  it("lists the caller's conversations with a bot, the most recently active first", async () => {
    const bot = await createBot(t, alice.token);
    const older = await createConversation(t, alice.token, bot.id);
    await post('/api/messages', { conversationId: older.id, content: 'First' });
    const newer = await createConversation(t, alice.token, bot.id);
    await createConversation(t, alice.token, (await createBot(t, alice.token)).id);
    const list = async () =>
      (await t.request('GET', `/api/bots/${bot.id}/conversations`, { token: alice.token })).body.map(
        (c: { id: number }) => c.id,
      );
    expect(await list()).toEqual([newer.id, older.id]);

    const message = await post('/api/messages', {
      conversationId: older.id,
      content: 'Back to this one',
      role: 'user',
    });
    expect(message.status).toBe(201);
    expect(await list()).toEqual([older.id, newer.id]);
    const moved = await t.request('GET', `/api/conversations/${older.id}`, { token: alice.token });
    expect(moved.body.updatedAt).toBe(message.body.createdAt);
  });

  it('renames a conversation and refuses a blank or overlong title', async () => {
    const conversation = await createConversation(t, alice.token, (await createBot(t, alice.token)).id);
    const patch = (title: unknown) =>
      t.request('PATCH', `/api/conversations/${conversation.id}`, { token: alice.token, body: { title } });
    const res = await patch('  Weekend plans  ');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...conversation, title: 'Weekend plans', titleSource: 'user' });
    expectValidation(await patch('   '), 'title', CHAT_MESSAGES.titleRequired);
    expectValidation(await patch(undefined), 'title', CHAT_MESSAGES.titleRequired);
    expectValidation(await patch('x'.repeat(121)), 'title', CHAT_MESSAGES.titleMax);
    expect((await patch('x'.repeat(120))).status).toBe(200);
  });

  it('deletes a conversation with its messages, and nothing else', async () => {
    const bot = await createBot(t, alice.token);
    const doomed = await createConversation(t, alice.token, bot.id);
    await post('/api/bot-message', { conversationId: doomed.id, botId: bot.id, userMessageContent: 'Hello' });
    const kept = await createConversation(t, alice.token, bot.id);
    await post('/api/messages', { conversationId: kept.id, content: 'Hello', role: 'user' });

    const res = await t.request('DELETE', `/api/conversations/${doomed.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: CHAT_MESSAGES.conversationDeleted });
    const left = await t.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', doomed.id)
      .execute();
    expect(left).toEqual([]);
    expectError(
      await t.request('GET', `/api/conversations/${doomed.id}`, { token: alice.token }),
      404,
      CHAT_MESSAGES.conversationNotFound,
    );
    expectError(
      await t.request('DELETE', `/api/conversations/${doomed.id}`, { token: alice.token }),
      404,
      CHAT_MESSAGES.conversationNotFound,
    );
    expect(await messagesOf(t, alice.token, kept.id)).toHaveLength(1);
  });

  describe('POST /api/messages', () => {
    it('saves a trimmed user message and lists messages in order', async () => {
      const conversation = await createConversation(t, alice.token, (await createBot(t, alice.token)).id);
      const first = await post('/api/messages', {
        conversationId: conversation.id,
        content: '  What is for dinner?\n',
        role: 'user',
      });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        id: expect.any(Number),
        conversationId: conversation.id,
        role: 'user',
        content: 'What is for dinner?',
        status: 'complete',
        createdAt: expect.stringMatching(ISO),
        sources: [],
        steps: [],
        attachments: [],
        versions: { index: 0, count: 1, ids: [first.body.id] },
      });
      const second = await post('/api/messages', { conversationId: conversation.id, content: 'And for lunch?' });
      expect(second.body.role).toBe('user');
      expect(await messagesOf(t, alice.token, conversation.id)).toEqual([first.body, second.body]);
    });

    it.each([
      ['blank content', { content: '  \n ' }, 'content', CHAT_MESSAGES.messageEmpty],
      ['no content', { content: undefined }, 'content', CHAT_MESSAGES.messageEmpty],
      ['overlong content', { content: 'x'.repeat(8001) }, 'content', CHAT_MESSAGES.messageMax],
      ['no conversation', { conversationId: undefined }, 'conversationId', CHAT_MESSAGES.conversationRequired],
      ['a conversation id of 0', { conversationId: 0 }, 'conversationId', CHAT_MESSAGES.conversationRequired],
      ['an assistant message', { role: 'assistant' }, 'role', CHAT_MESSAGES.userRoleOnly],
    ])('refuses %s', async (_, change, field, message) => {
      const conversation = await createConversation(t, alice.token, (await createBot(t, alice.token)).id);
      const res = await post('/api/messages', {
        conversationId: conversation.id,
        content: 'Hi',
        role: 'user',
        ...change,
      });
      expectValidation(res, field, message);
      expect(await messagesOf(t, alice.token, conversation.id)).toEqual([]);
    });

    it('answers 404 for a conversation that does not exist', async () => {
      expectError(
        await post('/api/messages', { conversationId: 999_999, content: 'Hi', role: 'user' }),
        404,
        CHAT_MESSAGES.conversationNotFound,
      );
    });
  });

  describe('replies in offline mode', () => {
    it('says so in the status', async () => {
      const res = await t.request('GET', '/api/chat/status', { token: alice.token });
      expect(res.body).toEqual({ offline: true, provider: 'offline', model: null });
    });

    it('answers bot-message honestly, saves both messages and counts the use', async () => {
      const bot = await createBot(t, alice.token, { name: 'Chef Bot' });
      const conversation = await createConversation(t, alice.token, bot.id);
      const res = await post('/api/bot-message', {
        conversationId: conversation.id,
        botId: bot.id,
        userMessageContent: ' Any ideas? ',
      });
      expect(res.status).toBe(200);
      expect(res.body.botResponse).toBe(offlineReplyText('Chef Bot'));
      expect(res.body.botResponse).toMatch(/^I'm Chef Bot, but no language model is connected/);
      expect(res.body.botResponse).toContain('LLM_BASE_URL');
      expect(res.body.botResponse).toContain('http://127.0.0.1:11434/v1');
      expect(res.body.message).toMatchObject({ role: 'assistant', status: 'complete', content: res.body.botResponse });

      const messages = await messagesOf(t, alice.token, conversation.id);
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Any ideas?'],
        ['assistant', res.body.botResponse],
      ]);
      // The reply's row is created when it starts; the use counts from when it ended (off the reply's path).
      await t.app.backgroundSettled();
      const after = (await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token })).body;
      expect(after.usageCount).toBe(1);
      expect(after.lastUsed >= res.body.message.createdAt).toBe(true);
    });

    it('streams the offline reply in several pieces', async () => {
      const bot = await createBot(t, alice.token, { name: 'Scout' });
      const conversation = await createConversation(t, alice.token, bot.id);
      const events = await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
        token: alice.token,
        body: { content: 'Hello?' },
      });
      expect(events[0]).toMatchObject({ event: 'user-message', data: { role: 'user', content: 'Hello?' } });
      expect(deltasOf(events).length).toBeGreaterThan(3);
      expect(deltasOf(events).join('')).toBe(offlineReplyText('Scout'));
      expect(events.at(-1)).toMatchObject({
        event: 'done',
        data: { role: 'assistant', status: 'complete', content: offlineReplyText('Scout') },
      });
    });

    it('answers a message already posted with POST /api/messages instead of saving it twice, as the spec client sends both', async () => {
      const bot = await createBot(t, alice.token);
      const conversation = await createConversation(t, alice.token, bot.id);
      const ask = (content: string) =>
        post('/api/bot-message', { conversationId: conversation.id, botId: bot.id, userMessageContent: content });
      await post('/api/messages', { conversationId: conversation.id, content: 'Plan my week', role: 'user' });
      expect((await ask('Plan my week')).status).toBe(200);
      // The latest message is now the reply, so the same question asked again is a new message.
      expect((await ask('Plan my week')).status).toBe(200);
      const roles = (await messagesOf(t, alice.token, conversation.id)).map(
        (m) => `${m.role}:${m.role === 'user' ? m.content : '…'}`,
      );
      expect(roles).toEqual(['user:Plan my week', 'assistant:…', 'user:Plan my week', 'assistant:…']);
    });

    it('refuses bot-message for another bot, a blank message, and an inactive bot', async () => {
      const bot = await createBot(t, alice.token);
      const other = await createBot(t, alice.token);
      const conversation = await createConversation(t, alice.token, bot.id);
      const ask = (body: object) =>
        post('/api/bot-message', { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Hi', ...body });
      expectError(await ask({ botId: other.id }), 400, CHAT_MESSAGES.wrongBot);
      expectValidation(await ask({ userMessageContent: ' ' }), 'userMessageContent', CHAT_MESSAGES.messageEmpty);
      expectValidation(await ask({ conversationId: undefined }), 'conversationId', CHAT_MESSAGES.conversationRequired);
      expectError(await ask({ conversationId: 999_999 }), 404, CHAT_MESSAGES.conversationNotFound);
      await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body: { active: false } });
      expectError(await ask({}), 409, CHAT_MESSAGES.botInactive);
      expectError(
        await post(`/api/conversations/${conversation.id}/stream`, { content: 'Hi' }),
        409,
        CHAT_MESSAGES.botInactive,
      );
      expect(await messagesOf(t, alice.token, conversation.id)).toEqual([]);
    });

    it('has nothing to regenerate in an empty conversation', async () => {
      const conversation = await createConversation(t, alice.token, (await createBot(t, alice.token)).id);
      expectError(
        await post(`/api/conversations/${conversation.id}/regenerate`, undefined),
        409,
        CHAT_MESSAGES.nothingToRegenerate,
      );
      expect(await post(`/api/conversations/${conversation.id}/stop`, undefined)).toMatchObject({
        status: 200,
        body: { stopped: false },
      });
    });
  });

  it("answers 404 to another user on every route of someone else's conversation or bot, and changes nothing", async () => {
    const bot = await createBot(t, alice.token);
    const conversation = await createConversation(t, alice.token, bot.id);
    await post('/api/bot-message', { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Mine' });
    const id = conversation.id;
    // The reply names the conversation in the background: once named, only the calls below could change it.
    await vi.waitFor(async () => {
      const named = await t.request('GET', `/api/conversations/${id}`, { token: alice.token });
      expect(named.body.titleSource).toBe('auto');
    });
    const before = {
      conversation: (await t.request('GET', `/api/conversations/${id}`, { token: alice.token })).body,
      messages: await messagesOf(t, alice.token, id),
    };
    const notFound: [string, string, unknown, string][] = [
      ['GET', `/api/conversations/${id}`, undefined, CHAT_MESSAGES.conversationNotFound],
      ['PATCH', `/api/conversations/${id}`, { title: 'Stolen' }, CHAT_MESSAGES.conversationNotFound],
      ['DELETE', `/api/conversations/${id}`, undefined, CHAT_MESSAGES.conversationNotFound],
      ['GET', `/api/conversations/${id}/messages`, undefined, CHAT_MESSAGES.conversationNotFound],
      [
        'POST',
        '/api/messages',
        { conversationId: id, content: 'Hi', role: 'user' },
        CHAT_MESSAGES.conversationNotFound,
      ],
      [
        'POST',
        '/api/bot-message',
        { conversationId: id, botId: bot.id, userMessageContent: 'Hi' },
        CHAT_MESSAGES.conversationNotFound,
      ],
      ['POST', `/api/conversations/${id}/stream`, { content: 'Hi' }, CHAT_MESSAGES.conversationNotFound],
      ['POST', `/api/conversations/${id}/regenerate`, undefined, CHAT_MESSAGES.conversationNotFound],
      ['POST', `/api/conversations/${id}/stop`, undefined, CHAT_MESSAGES.conversationNotFound],
      ['POST', '/api/conversations', { botId: bot.id }, 'Bot not found'],
      ['GET', `/api/bots/${bot.id}/conversations`, undefined, 'Bot not found'],
    ];
    for (const [method, path, body, message] of notFound) {
      const res = await t.request(method, path, { token: bob.token, body });
      expect({ call: `${method} ${path}`, status: res.status, message: res.body.message }).toEqual({
        call: `${method} ${path}`,
        status: 404,
        message,
      });
    }
    expect((await t.request('GET', `/api/conversations/${id}`, { token: alice.token })).body).toEqual(
      before.conversation,
    );
    expect(await messagesOf(t, alice.token, id)).toEqual(before.messages);
    await t.app.backgroundSettled();
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.usageCount).toBe(1);
  });

  it('lists the chat routes in the OpenAPI document', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/conversations',
        '/api/conversations/{id}',
        '/api/conversations/{id}/messages',
        '/api/conversations/{id}/stream',
        '/api/conversations/{id}/regenerate',
        '/api/conversations/{id}/stop',
        '/api/bots/{id}/conversations',
        '/api/messages',
        '/api/bot-message',
        '/api/chat/status',
      ]),
    );
  });
});

describe.each(databaseKinds)('chat history across a restart on %s', (kind) => {
  it('keeps conversations and messages when the server starts again on the same database', async () => {
    const first = await startTestApp({ kind });
    const me = await signUp(first);
    const bot = await createBot(first, me.token);
    const conversation = await createConversation(first, me.token, bot.id);
    await first.request('POST', '/api/bot-message', {
      token: me.token,
      body: { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Remember me?' },
    });
    const before = await messagesOf(first, me.token, conversation.id);
    expect(before).toHaveLength(2);
    await first.close({ keepDb: true });

    const second = await startTestApp({ testDb: first.testDb });
    try {
      expect(await messagesOf(second, me.token, conversation.id)).toEqual(before);
      const list = await second.request('GET', `/api/bots/${bot.id}/conversations`, { token: me.token });
      // Named after its first question while offline (decision 0014).
      expect(list.body).toEqual([expect.objectContaining({ id: conversation.id, title: 'Remember me?' })]);
    } finally {
      await second.close();
    }
  });
});

describe.each(databaseKinds)('rate limit on model calls on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, chatRateLimit: { max: 3, timeWindow: 60_000 } });
  });
  afterAll(() => t.close());

  it('counts bot-message, stream and regenerate together, per user', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    const bot = await createBot(t, me.token);
    const conversation = await createConversation(t, me.token, bot.id);
    const body = { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Hi' };
    expect((await t.request('POST', '/api/bot-message', { token: me.token, body })).status).toBe(200);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: me.token,
      body: { content: 'Hi again' },
    });
    await streamChat(t, `/api/conversations/${conversation.id}/regenerate`, { token: me.token });

    const limited = await t.request('POST', '/api/bot-message', { token: me.token, body });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (
        await t.request('POST', `/api/conversations/${conversation.id}/stream`, {
          token: me.token,
          body: { content: 'x' },
        })
      ).status,
    ).toBe(429);
    // Reading and posting messages cost no model call; another user has a budget of their own.
    expect((await t.request('GET', `/api/conversations/${conversation.id}/messages`, { token: me.token })).status).toBe(
      200,
    );
    const theirs = await createConversation(t, other.token, (await createBot(t, other.token)).id);
    expect(
      (
        await t.request('POST', `/api/conversations/${theirs.id}/stream`, {
          token: other.token,
          body: { content: 'Hi' },
        })
      ).status,
    ).toBe(200);
  });
});
