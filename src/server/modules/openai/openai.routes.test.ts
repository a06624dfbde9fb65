import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, systemPromptOf, messageText, type FakeLlm } from '../../../../tests/support/fake-llm';
import { uploadSettled } from '../../../../tests/support/files-api';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { offlineReplyText } from '../../ai/tasks/chat-reply';

const REPLY = 'Plan: lentil soup on Monday, then a vegetable curry.';
const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const BOT_PROMPT = 'You are the Meal Planner. Only talk about meals.';

/** The official client, pointed at Botty as a developer would; no retries, so a 429 is seen as it is. */
const clientFor = (t: TestApp, apiKey: string) => new OpenAI({ baseURL: `${t.url}/v1`, apiKey, maxRetries: 0 });

async function keyFor(t: TestApp, token: string, botId: number | null = null): Promise<string> {
  const res = await t.request('POST', '/api/keys', { token, body: { name: 'test', botId } });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

describe.each(databaseKinds)('the OpenAI-compatible API, on %s', (kind) => {
  let fake: FakeLlm;
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'botty-openai-'));
  beforeAll(async () => {
    fake = await startFakeLlm({ reply: REPLY });
    t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model, FILES_DIR: dir },
      fileJobs: { pollMs: 50 },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function developer() {
    const { token } = await signUp(t);
    const planner = await createBot(t, token, { name: 'Meal Planner', config: { customPrompt: BOT_PROMPT } });
    const other = await createBot(t, token, { name: 'Second' });
    return { token, planner, other };
  }

  it('lists the key’s active bots as models, with their names', async () => {
    const { token, planner, other } = await developer();
    const paused = await createBot(t, token, { name: 'Paused', active: false });
    const all = await clientFor(t, await keyFor(t, token)).models.list();
    const listed = all.data.map((m) => ({ id: m.id, object: m.object, name: (m as unknown as { name: string }).name }));
    expect(listed).toEqual(
      expect.arrayContaining([
        { id: `bot-${planner.id}`, object: 'model', name: 'Meal Planner' },
        { id: `bot-${other.id}`, object: 'model', name: 'Second' },
      ]),
    );
    expect(listed.map((m) => m.id)).not.toContain(`bot-${paused.id}`);
    const scoped = await clientFor(t, await keyFor(t, token, other.id)).models.list();
    expect(scoped.data.map((m) => m.id)).toEqual([`bot-${other.id}`]);
  });

  it('answers with the bot’s prompt first, the caller’s system message after it, and stores nothing', async () => {
    const { token, planner } = await developer();
    const client = clientFor(t, await keyFor(t, token));
    const completion = await client.chat.completions.create({
      model: `bot-${planner.id}`,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour !' },
        { role: 'user', content: 'Plan my week' },
      ],
      max_tokens: 64,
      temperature: 0.2,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(`bot-${planner.id}`);
    expect(completion.choices[0]!.message.content).toBe(REPLY);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);

    const sent = fake.lastRequest().body;
    const system = systemPromptOf(fake.lastRequest());
    expect(system.startsWith(BOT_PROMPT)).toBe(true);
    expect(system.indexOf('Answer in French.')).toBeGreaterThan(system.indexOf(BOT_PROMPT));
    expect(sent.messages.filter((m) => m.role !== 'system').map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Bonjour !'],
      ['user', 'Plan my week'],
    ]);
    expect(sent).toMatchObject({ max_tokens: 64, temperature: 0.2 });

    expect(
      await t.db.kysely.selectFrom('conversations').selectAll().where('bot_id', '=', planner.id).execute(),
    ).toEqual([]);
    const bot = await t.request('GET', `/api/bots/${planner.id}`, { token });
    expect(bot.body.usageCount).toBe(1);
    expect(bot.body.lastUsed).not.toBeNull();
  });

  it('streams chat.completion.chunks whose content is the reply, with usage at the end', async () => {
    const { token, planner } = await developer();
    const stream = await clientFor(t, await keyFor(t, token, planner.id)).chat.completions.create({
      model: `bot-${planner.id}`,
      messages: [{ role: 'user', content: 'Plan my week' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(REPLY);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('answers from the bot’s knowledge, its passage reaching the model', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, {
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    await uploadSettled(t, token, `/api/bots/${bot.id}/files`, 'manual.txt', new TextEncoder().encode(FACT));
    await clientFor(t, await keyFor(t, token)).chat.completions.create({
      model: `bot-${bot.id}`,
      messages: [{ role: 'user', content: 'How often is the Zephyr widget recalibrated?' }],
    });
    const system = systemPromptOf(fake.lastRequest());
    expect(system).toContain(FACT);
    expect(system).toMatch(/\[1\] \(manual\.txt/);
  });

  it('refuses a bad key (401), an unknown model or one outside the key (404), and a bad request (400)', async () => {
    const { token, planner, other } = await developer();
    const stranger = await signUp(t);
    const theirs = await createBot(t, stranger.token);
    const scoped = clientFor(t, await keyFor(t, token, planner.id));
    const ask = (client: OpenAI, model: string, extra: object = {}) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], ...extra });

    const bad = await ask(clientFor(t, 'botty_not-a-key'), `bot-${planner.id}`).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((bad as APIError).code).toBe('invalid_api_key');

    for (const model of ['gpt-4o', `bot-${other.id}`, `bot-${theirs.id}`, 'bot-99999999']) {
      const missing = await ask(scoped, model).catch((e: unknown) => e);
      expect(missing, model).toBeInstanceOf(OpenAI.NotFoundError);
      expect((missing as APIError).code).toBe('model_not_found');
    }

    const hot = await ask(scoped, `bot-${planner.id}`, { temperature: 3 }).catch((e: unknown) => e);
    expect(hot).toBeInstanceOf(OpenAI.BadRequestError);
    expect((hot as APIError).param).toBe('temperature');
    const noQuestion = await scoped.chat.completions
      .create({ model: `bot-${planner.id}`, messages: [{ role: 'assistant', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(noQuestion).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noQuestion as APIError).error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });

    const raw = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await keyFor(t, token)}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('reports a failing model in OpenAI’s shape', async () => {
    const { token, planner } = await developer();
    fake.enqueue({ status: 500 });
    const failed = await clientFor(t, await keyFor(t, token))
      .chat.completions.create({ model: `bot-${planner.id}`, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as APIError).status).toBe(502);
    expect((failed as APIError).message).toContain('The language model failed to answer (error 500)');
  });
});

describe('the OpenAI-compatible API without a model, and under a rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_API_KEY_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('answers honestly offline, in the same shape, then 429 with Retry-After per key', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { name: 'Scout' });
    const client = clientFor(t, await keyFor(t, token));
    const completion = await client.chat.completions.create({
      model: `bot-${bot.id}`,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe(offlineReplyText('Scout'));
    expect(completion.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

    await client.models.list();
    await client.models.list();
    const limited = await client.models.list().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((limited as APIError).headers?.get('retry-after'))).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await clientFor(t, await keyFor(t, token)).models.list()).data).toHaveLength(1);
  });
});
