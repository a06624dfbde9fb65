import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildLocalPrompt, localExampleQueries } from '@shared/bots/prompt-template';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  messageText,
  startFakeLlm,
  systemPromptOf,
  unreachableUrl,
  type FakeLlm,
} from '../../../../tests/support/fake-llm';
import { signUp, startTestApp, startTestAppWithModel, type TestApp } from '../../../../tests/support/test-app';
import { createAi } from '../providers';
import { generatePrompt } from './generate-prompt';

const body = {
  name: 'Meal Planner',
  description: 'You are a bot that plans weekly vegetarian meals',
  purpose: 'planning' as const,
  exampleQueries: [],
};
const template = {
  systemPrompt: buildLocalPrompt(body),
  exampleQueries: localExampleQueries(body.purpose, body.name),
  source: 'template',
};
const modelPrompt = 'You are Meal Planner. You plan healthy vegetarian meals for the week.';
const modelAnswer = (exampleQueries: unknown[]) => JSON.stringify({ systemPrompt: modelPrompt, exampleQueries });

describe.each(databaseKinds)('POST /api/generate-prompt on %s', (kind) => {
  let fake: FakeLlm;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    const started = await startTestAppWithModel({ kind });
    t = started;
    fake = started.fake;
    token = (await signUp(t)).token;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const generate = (payload: unknown = body) => t.request('POST', '/api/generate-prompt', { token, body: payload });

  it("answers with the model's prompt and queries, dropping blank ones", async () => {
    fake.enqueue(modelAnswer(['What should I cook tonight?', '   ', '', 'Plan my week.', 'Plan my week.']));
    const res = await generate();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      systemPrompt: modelPrompt,
      exampleQueries: ['What should I cook tonight?', 'Plan my week.'],
      source: 'model',
    });
  });

  it("sends the bot's name, description and purpose to the configured model in JSON mode", async () => {
    fake.enqueue(modelAnswer(['Plan my week.']));
    await generate();
    expect(fake.requests).toHaveLength(1);
    const request = fake.lastRequest();
    expect(request.body.model).toBe('fake-model');
    expect(request.body.stream).toBeFalsy();
    expect(request.body.response_format).toEqual({ type: 'json_object' });
    expect(systemPromptOf(request)).toContain('"systemPrompt"');
    const user = messageText(request.body.messages.find((m) => m.role === 'user'));
    expect(user).toContain('Name: Meal Planner');
    expect(user).toContain('Description: You are a bot that plans weekly vegetarian meals');
    expect(user).toContain('Purpose: Planning & organization');
    // No key configured, so none is sent.
    expect(request.headers.authorization).toBeUndefined();
  });

  it("sends the user's example queries, so the prompt is written for them", async () => {
    fake.enqueue(modelAnswer(['Plan my week.']));
    const exampleQueries = ['What can I cook with lentils?', 'Plan a week of dinners under 30 minutes'];
    const res = await generate({ ...body, exampleQueries: [` ${exampleQueries[0]} `, exampleQueries[1]] });
    expect(res.status).toBe(200);
    const user = messageText(fake.lastRequest().body.messages.find((m) => m.role === 'user'));
    expect(user).toContain(`Questions its users will ask:\n- ${exampleQueries[0]}\n- ${exampleQueries[1]}`);
    expect(systemPromptOf(fake.lastRequest())).toContain('prepares the assistant to answer exactly such questions');
  });

  it('refuses example queries that are blank, repeated or too many', async () => {
    const refused = [
      [['  '], 'Each example query must be 1 to 500 characters'],
      [['Plan my week', 'Plan my week'], 'Each example query can be listed only once'],
      [Array.from({ length: 21 }, (_, i) => `Query ${i}`), 'At most 20 example queries'],
    ] as const;
    for (const [exampleQueries, message] of refused) {
      const res = await generate({ ...body, exampleQueries });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('accepts JSON wrapped in prose or a code fence', async () => {
    fake.enqueue('Sure! Here it is:\n```json\n' + modelAnswer(['Plan my week.']) + '\n```');
    expect((await generate()).body).toMatchObject({ systemPrompt: modelPrompt, source: 'model' });
  });

  it.each([
    ['text that is not JSON', 'I am sorry, I cannot produce JSON today.'],
    ['JSON of the wrong shape', JSON.stringify({ prompt: 'x', queries: ['y'] })],
    ['a blank prompt', JSON.stringify({ systemPrompt: '   ', exampleQueries: ['Plan my week.'] })],
    ['only blank queries', JSON.stringify({ systemPrompt: modelPrompt, exampleQueries: ['', '  '] })],
    ['queries that are not text', JSON.stringify({ systemPrompt: modelPrompt, exampleQueries: [1, 2] })],
  ])('falls back to the local template on %s', async (_, reply) => {
    fake.enqueue(reply);
    const res = await generate();
    expect(res.status).toBe(200);
    expect(res.body).toEqual(template);
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back to the local template when the model answers with an error or a body that is not JSON', async () => {
    fake.enqueue({ status: 500, message: 'model crashed' }, { status: 429 }, { raw: '<html>bad gateway</html>' });
    for (let i = 0; i < 3; i += 1) {
      const res = await generate();
      expect(res.status).toBe(200);
      expect(res.body).toEqual(template);
    }
    // One attempt each: no retries behind the user's back.
    expect(fake.requests).toHaveLength(3);
  });

  it('stops the model call when the user cancels training', async () => {
    fake.enqueue({ hang: true });
    const cancel = new AbortController();
    const call = fetch(`${t.url}/api/generate-prompt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: cancel.signal,
    });
    while (fake.requests.length === 0) await sleep(10);
    cancel.abort();
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 50 && !fake.lastRequest().aborted; i += 1) await sleep(20);
    expect(fake.lastRequest().aborted).toBe(true);
  });

  it('validates the request', async () => {
    const res = await generate({ name: '', description: 'x', purpose: 'planning' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Name is required');
    expect((await generate({ name: 'x', description: 'y', purpose: 'gossip' })).status).toBe(400);
    expect(fake.requests).toHaveLength(0);
  });
});

describe.each(databaseKinds)('POST /api/generate-prompt without a reachable model on %s', (kind) => {
  it('answers with the local template when the model server is down', async () => {
    const t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: `${await unreachableUrl()}/v1`, LLM_MODEL: 'fake-model' },
    });
    try {
      const { token } = await signUp(t);
      const res = await t.request('POST', '/api/generate-prompt', { token, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(template);
    } finally {
      await t.close();
    }
  });

  it('answers with the local template offline, and limits how often it is asked', async () => {
    const t = await startTestApp({ kind });
    try {
      expect(t.config.llm.provider).toBe('offline');
      const { token } = await signUp(t);
      const res = await t.request('POST', '/api/generate-prompt', { token, body: { ...body, purpose: 'analyzing' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        systemPrompt: buildLocalPrompt({ ...body, purpose: 'analyzing' }),
        exampleQueries: localExampleQueries('analyzing', body.name),
        source: 'template',
      });
      const statuses = [];
      for (let i = 0; i < 30; i += 1)
        statuses.push((await t.request('POST', '/api/generate-prompt', { token, body })).status);
      expect(statuses.slice(0, 29).every((s) => s === 200)).toBe(true);
      expect(statuses[29]).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('generatePrompt', () => {
  it('gives up on a model that does not answer in time', async () => {
    const fake = await startFakeLlm({ reply: { hang: true } });
    try {
      const log = pino({ level: 'silent' });
      const ai = await createAi(
        { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: 'secret-key', model: 'fake-model' },
        log,
      );
      const started = Date.now();
      const result = await generatePrompt({ ai, log }, body, { timeoutMs: 300 });
      expect(result).toEqual(template);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(fake.lastRequest().headers.authorization).toBe('Bearer secret-key');
    } finally {
      await fake.close();
    }
  });
});
