import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotConfig } from '@shared/contracts/bots';
import { CHAT_MESSAGES, type MessageRole, type MessageStatus } from '@shared/contracts/chat';
import { composeSystemPrompt } from '../../ai/compose-prompt';
import { CHAT_ERRORS } from '../../ai/tasks/chat-reply';
import { expectError, startCheckedApp } from '../../../../tests/support/auth-api';
import {
  createConversation,
  deltasOf,
  messagesOf,
  openChatStream,
  streamChat,
  readEvents,
} from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  messageText,
  startFakeLlm,
  systemPromptOf,
  unreachableUrl,
  type FakeLlm,
} from '../../../../tests/support/fake-llm';
import { signUp, type TestApp } from '../../../../tests/support/test-app';

// Short enough for quick timeout tests, long enough that a loaded CI machine does not trip them on a healthy reply.
const TIMEOUTS = { firstTokenMs: 600, totalMs: 1500 };

describe.each(databaseKinds)('replies from a language model on %s', (kind) => {
  let fake: FakeLlm;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    t = await startCheckedApp({
      kind,
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' },
      chatTimeouts: TIMEOUTS,
    });
    token = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.setReply('Hello from the fake model.');
    fake.requests.length = 0;
  });

  async function chat(config: BotConfig = { tone: 'friendly' }) {
    const bot = await createBot(t, token, { name: 'Captain Soup', config });
    const conversation = await createConversation(t, token, bot.id);
    const path = (action: 'stream' | 'regenerate' | 'stop') => `/api/conversations/${conversation.id}/${action}`;
    return {
      bot,
      conversation,
      send: (content: string) => streamChat(t, path('stream'), { token, body: { content } }),
      open: (content: string) => openChatStream(t, path('stream'), { token, body: { content } }),
      regenerate: () => streamChat(t, path('regenerate'), { token }),
      stop: () => t.request('POST', path('stop'), { token }),
      messages: () => messagesOf(t, token, conversation.id),
      // The use is counted off the reply's path (its `done` does not wait for it).
      usage: async () => {
        await t.app.backgroundSettled();
        return (await t.request('GET', `/api/bots/${bot.id}`, { token })).body as {
          usageCount: number;
          lastUsed: string | null;
        };
      },
    };
  }

  const modelMessages = () => fake.lastRequest().body.messages.map((m) => ({ role: m.role, content: messageText(m) }));

  it('streams the reply in pieces as the model writes them, then saves it whole and counts the use', async () => {
    const c = await chat();
    const text = 'Soup is a warm and simple dinner.';
    fake.enqueue({ text, chunkDelayMs: 25 });
    const stream = await c.open('  What should I cook?  ');
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    const events = await stream.finished;

    expect(events[0]).toMatchObject({
      event: 'user-message',
      data: { role: 'user', content: 'What should I cook?', status: 'complete' },
    });
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    // Pieces arrive while the model is still writing, not in one batch at the end.
    expect(deltas.at(-1)!.at - deltas[0]!.at).toBeGreaterThanOrEqual(75);
    expect(deltasOf(events).join('')).toBe(text);
    const done = events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', data: { role: 'assistant', content: text, status: 'complete' } });
    expect(events.filter((e) => e.event === 'done' || e.event === 'error')).toHaveLength(1);

    const saved = await c.messages();
    expect(saved).toEqual([events[0]!.data, done.data]);
    // The reply's row is created when it starts; the use and the conversation count from when it ended.
    const doneMessage = done.data as { createdAt: string };
    const usage = await c.usage();
    expect(usage.usageCount).toBe(1);
    expect(usage.lastUsed! >= doneMessage.createdAt).toBe(true);
    const conversation = await t.request('GET', `/api/conversations/${c.conversation.id}`, { token });
    expect(conversation.body.updatedAt).toBe(usage.lastUsed);
    expect(fake.lastRequest().body).toMatchObject({ model: 'fake-model', stream: true });
  });

  describe('what reaches the model', () => {
    const history: [MessageRole, string, MessageStatus?][] = [
      ['user', 'q1'],
      ['assistant', 'a1'],
      ['user', 'q2'],
      ['assistant', 'a2'],
      ['user', 'q3'],
      ['assistant', 'half an answ', 'failed'],
      ['assistant', 'a3'],
    ];

    async function chatWithHistory(config: BotConfig) {
      const c = await chat(config);
      const at = new Date().toISOString();
      await t.db.kysely
        .insertInto('messages')
        .values(
          history.map(([role, content, status]) => ({
            conversation_id: c.conversation.id,
            role,
            content,
            status: status ?? 'complete',
            created_at: at,
          })),
        )
        .execute();
      return c;
    }

    it("sends the custom prompt over the system prompt, the bot's settings, and the last messages its memory holds", async () => {
      const config: BotConfig = {
        customPrompt: 'You are Captain Soup, a cheerful soup expert.',
        systemPrompt: 'You are a generic assistant.',
        tone: 'friendly',
        writingStyle: 'concise',
        citationGeneration: true,
        trustedSources: 'seriouseats.com, nature.com',
        conversationMemory: true,
        maxContextMessages: 3,
      };
      const c = await chatWithHistory(config);
      await c.send('q4');

      const system = systemPromptOf(fake.lastRequest());
      expect(system).toBe(composeSystemPrompt({ ...c.bot, config }));
      expect(system).toMatch(/^You are Captain Soup, a cheerful soup expert\./);
      expect(system).not.toContain('generic assistant');
      expect(system).toContain('Use a friendly tone');
      expect(system).toContain('Write concisely');
      expect(system).toContain('Cite your sources');
      expect(system).toContain('seriouseats.com, nature.com');
      // The failed reply is not part of the exchange, so the window reaches back one further.
      expect(modelMessages().slice(1)).toEqual([
        { role: 'assistant', content: 'a2' },
        { role: 'user', content: 'q3' },
        { role: 'assistant', content: 'a3' },
        { role: 'user', content: 'q4' },
      ]);
    });

    it('leaves the failed reply out whether its memory holds the whole conversation or just its end', async () => {
      // The window read with the last message: the whole branch (fewer messages than the window) or no failure in it.
      const c = await chatWithHistory({ conversationMemory: true, maxContextMessages: 10 });
      await c.send('q4');
      expect(modelMessages().slice(1)).toEqual([
        ...history.filter(([, , status]) => status !== 'failed').map(([role, content]) => ({ role, content })),
        { role: 'user', content: 'q4' },
      ]);
      const short = await chatWithHistory({ conversationMemory: true, maxContextMessages: 1 });
      await short.send('q4');
      expect(modelMessages().slice(1)).toEqual([
        { role: 'assistant', content: 'a3' },
        { role: 'user', content: 'q4' },
      ]);
    });

    it('sends only the new message when conversation memory is off', async () => {
      const c = await chatWithHistory({
        conversationMemory: false,
        maxContextMessages: 3,
        systemPrompt: 'You are a soup expert.',
      });
      await c.send('q4');
      expect(modelMessages()).toEqual([
        { role: 'system', content: 'You are a soup expert.' },
        { role: 'user', content: 'q4' },
      ]);
    });
  });

  it('stops a reply mid-way on request: the part written is kept as stopped, and the model request is aborted', async () => {
    const c = await chat();
    fake.enqueue({ text: 'first second third', hangAfterChunks: 2 });
    const stream = await c.open('Tell me a long story');
    await stream.waitFor((e) => e.event === 'delta' && e.data.text === 'second ');

    expect(await c.stop()).toMatchObject({ status: 200, body: { stopped: true } });
    const events = await stream.finished;
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { role: 'assistant', content: 'first second ', status: 'stopped' },
    });
    await expect.poll(() => fake.lastRequest().aborted).toBe(true);
    expect((await c.messages()).map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Tell me a long story', 'complete'],
      ['assistant', 'first second ', 'stopped'],
    ]);
    expect((await c.usage()).usageCount).toBe(1);
    expect(await c.stop()).toMatchObject({ status: 200, body: { stopped: false } });
  });

  it('keeps writing when the client goes away, and a reconnecting client resumes without gap or duplicate', async () => {
    const c = await chat();
    const words = ['alpha ', 'beta ', 'gamma ', 'delta ', 'epsilon'];
    fake.enqueue({ text: words.join(''), chunks: words, chunkDelayMs: 60 });
    const stream = await c.open('Hello');
    await stream.waitFor((e) => e.event === 'delta');
    stream.disconnect();
    const seen = [...stream.events];
    expect(fake.lastRequest().aborted).toBe(false);

    // What the browser does after a blip or a reload: GET the stream with the last event id it saw.
    const lastId = seen.at(-1)!.id!;
    const resumed = await fetch(`${t.url}/api/conversations/${c.conversation.id}/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': lastId },
    });
    expect(resumed.status).toBe(200);
    const rest = await readEvents(resumed);
    expect(deltasOf([...seen, ...rest]).join('')).toBe(words.join(''));
    expect(rest.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', content: words.join('') } });
    expect(new Set([...seen, ...rest].map((e) => e.id)).size).toBe(seen.length + rest.length);

    // Without an id the reply is replayed, once it has ended without its deltas (`done` brings it whole); a
    // conversation with no reply running answers 204.
    const replay = await readEvents(
      await fetch(`${t.url}/api/conversations/${c.conversation.id}/stream`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(replay.map((e) => e.event)).toEqual(
      [...seen, ...rest].map((e) => e.event).filter((event) => event !== 'delta'),
    );
    expect(replay.at(-1)).toMatchObject({ event: 'done', data: { content: words.join('') } });
    const other = await chat();
    const none = await fetch(`${t.url}/api/conversations/${other.conversation.id}/stream`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(none.status).toBe(204);
    const bad = await fetch(`${t.url}/api/conversations/${c.conversation.id}/stream?after=nonsense`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses a second reply in a conversation while one is being written', async () => {
    const c = await chat();
    fake.enqueue({ text: 'one two', hangAfterChunks: 1 });
    const stream = await c.open('First');
    await stream.waitFor((e) => e.event === 'delta');
    const body = { content: 'Second' };
    expectError(
      await t.request('POST', `/api/conversations/${c.conversation.id}/stream`, { token, body }),
      409,
      CHAT_MESSAGES.replyRunning,
    );
    expectError(
      await t.request('POST', `/api/conversations/${c.conversation.id}/regenerate`, { token }),
      409,
      CHAT_MESSAGES.replyRunning,
    );
    await c.stop();
    await stream.finished;
    expect((await c.messages()).map((m) => m.content)).toEqual(['First', 'one ']);
  });

  it.each([
    [500, CHAT_ERRORS.status(500)],
    [503, CHAT_ERRORS.overloaded],
    [401, CHAT_ERRORS.apiKey],
    [404, CHAT_ERRORS.modelNotFound('fake-model')],
    [429, CHAT_ERRORS.busy],
  ])('turns a %i from the model into a clear error event and keeps the user message', async (status, message) => {
    const c = await chat();
    // A busy model (429, 503) is asked again while there is time: it stays busy here.
    fake.setReply({ status, message: 'upstream detail the user need not see' });
    const events = await c.send('Hello?');
    expect(events.map((e) => e.event)).toEqual(['user-message', 'start', 'error']);
    expect(events.at(-1)!.data).toEqual({ message });
    expect((await c.messages()).map((m) => [m.role, m.content])).toEqual([['user', 'Hello?']]);
    expect((await c.usage()).usageCount).toBe(0);
  });

  it('gives up on a model that does not start answering, and aborts its request', async () => {
    const c = await chat();
    fake.enqueue({ hang: true });
    const started = performance.now();
    const events = await c.send('Anyone there?');
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { message: CHAT_ERRORS.firstTokenTimeout } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUTS.firstTokenMs - 10);
    await expect.poll(() => fake.lastRequest().aborted).toBe(true);
    expect(await c.messages()).toHaveLength(1);
  });

  it('cuts a reply that takes too long, keeping the part written as failed', async () => {
    const c = await chat();
    fake.enqueue({ text: 'slow and then nothing', hangAfterChunks: 2 });
    const events = await c.send('Take your time');
    const saved = (await c.messages()).at(-1)!;
    expect(saved).toMatchObject({ role: 'assistant', content: 'slow and ', status: 'failed' });
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { message: CHAT_ERRORS.totalTimeout, messageId: saved.id },
      at: expect.any(Number),
      id: expect.any(String),
    });
    expect((await c.usage()).usageCount).toBe(0);
  });

  it('regenerates the last reply: a new answer to the same question replaces it', async () => {
    const c = await chat();
    fake.enqueue('First answer.');
    await c.send('Name a soup');
    fake.enqueue('Second answer.');
    const events = await c.regenerate();

    expect(events.map((e) => e.event)).not.toContain('user-message');
    expect(deltasOf(events).join('')).toBe('Second answer.');
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { role: 'assistant', content: 'Second answer.', status: 'complete' },
    });
    expect((await c.messages()).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Name a soup'],
      ['assistant', 'Second answer.'],
    ]);
    expect(modelMessages().slice(1)).toEqual([{ role: 'user', content: 'Name a soup' }]);
    expect((await c.usage()).usageCount).toBe(2);
  });

  it('retries with regenerate after a failure, and keeps the earlier reply when a regeneration fails', async () => {
    const c = await chat();
    fake.enqueue({ status: 500 });
    expect((await c.send('Try this')).at(-1)!.event).toBe('error');
    fake.enqueue('It worked.');
    expect((await c.regenerate()).at(-1)).toMatchObject({ event: 'done', data: { content: 'It worked.' } });
    fake.enqueue({ status: 500 });
    expect((await c.regenerate()).at(-1)!.event).toBe('error');
    expect((await c.messages()).map((m) => m.content)).toEqual(['Try this', 'It worked.']);
  });

  it("answers bot-message with the model's reply, and a failure with 502 and a clear message", async () => {
    const c = await chat();
    const ask = (userMessageContent: string) =>
      t.request('POST', '/api/bot-message', {
        token,
        body: { conversationId: c.conversation.id, botId: c.bot.id, userMessageContent },
      });
    fake.enqueue('Tomato soup.');
    const res = await ask('Soup of the day?');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      botResponse: 'Tomato soup.',
      message: expect.objectContaining({ role: 'assistant', content: 'Tomato soup.' }),
    });

    fake.enqueue({ status: 500 });
    expectError(await ask('And tomorrow?'), 502, CHAT_ERRORS.status(500));
    expect((await c.messages()).map((m) => m.content)).toEqual(['Soup of the day?', 'Tomato soup.', 'And tomorrow?']);
    expect(await t.request('GET', '/api/chat/status', { token })).toMatchObject({
      body: { offline: false, provider: 'openai-compatible', model: 'fake-model' },
    });
  });
});

describe.each(databaseKinds)('replies when the model server is down, on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startCheckedApp({ kind, env: { LLM_BASE_URL: `${await unreachableUrl()}/v1`, LLM_MODEL: 'fake-model' } });
    token = (await signUp(t)).token;
  });
  afterAll(() => t.close());

  it('says the model is not reachable and keeps the user message, streaming or not', async () => {
    const bot = await createBot(t, token);
    const conversation = await createConversation(t, token, bot.id);
    const events = await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'Hello?' },
    });
    expect(events.map((e) => e.event)).toEqual(['user-message', 'start', 'error']);
    expect(events.at(-1)!.data).toEqual({ message: CHAT_ERRORS.unreachable });
    expect(CHAT_ERRORS.unreachable).toBe(
      'The language model is not reachable. Check LLM_BASE_URL and that the model server is running.',
    );

    const res = await t.request('POST', '/api/bot-message', {
      token,
      body: { conversationId: conversation.id, botId: bot.id, userMessageContent: 'Still?' },
    });
    expectError(res, 502, CHAT_ERRORS.unreachable);
    expect((await messagesOf(t, token, conversation.id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello?'],
      ['user', 'Still?'],
    ]);
  });
});

describe.each(databaseKinds)('shutting down during a reply, on %s', (kind) => {
  it('ends running replies as interrupted (Retry, not Stopped), saves what they wrote and closes without waiting for the model', async () => {
    const fake = await startFakeLlm({ reply: { text: 'never finishes', hangAfterChunks: 1 } });
    const t = await startCheckedApp({ kind, env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' } });
    try {
      const { token } = await signUp(t);
      const conversation = await createConversation(t, token, (await createBot(t, token)).id);
      const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
        token,
        body: { content: 'Hi' },
      });
      await stream.waitFor((e) => e.event === 'delta');
      const started = performance.now();
      await t.close({ keepDb: true });
      expect(performance.now() - started).toBeLessThan(2000);
      expect((await stream.finished).at(-1)).toMatchObject({
        event: 'done',
        data: { content: 'never ', status: 'interrupted' },
      });
      const saved = await t.db.kysely
        .selectFrom('messages')
        .select(['role', 'content', 'status'])
        .orderBy('id')
        .execute();
      expect(saved).toEqual([
        { role: 'user', content: 'Hi', status: 'complete' },
        { role: 'assistant', content: 'never ', status: 'interrupted' },
      ]);
      await expect.poll(() => fake.lastRequest().aborted).toBe(true);
    } finally {
      await t.testDb.drop();
      await fake.close();
    }
  });
});
