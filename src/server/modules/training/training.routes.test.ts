import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { previewEventSchema, type PreviewEvent } from '@shared/contracts/training';
import { databaseKinds } from '../../../../tests/support/databases';
import { messageText, startFakeLlm, systemPromptOf, type FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

const draft = {
  name: 'Meal Planner',
  description: 'Plans weekly vegetarian meals',
  purpose: 'planning',
  capabilities: [],
  config: { systemPrompt: 'You are Meal Planner, a vegetarian cook.', tone: 'friendly' },
};
const queries = ['What can I cook with lentils?', 'Plan three dinners'];

async function preview(t: TestApp, token: string, body: unknown, signal?: AbortSignal) {
  const res = await fetch(`${t.url}/api/bots/preview-answers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  return res;
}

/** The preview stream as it arrives: each line parsed against the contract and time-stamped. */
async function readLines(res: Response): Promise<(PreviewEvent & { at: number })[]> {
  const events: (PreviewEvent & { at: number })[] = [];
  let buffer = '';
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += chunk.value;
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) events.push({ ...previewEventSchema.parse(JSON.parse(line)), at: performance.now() });
  }
  return events;
}

describe.each(databaseKinds)('POST /api/bots/preview-answers on %s', (kind) => {
  let fake: FakeLlm;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' },
      chatTimeouts: { firstTokenMs: 5000, totalMs: 10_000 },
    });
    token = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("answers each test query with the draft's prompt, one line per answer as it is written", async () => {
    fake.enqueue('Lentil dal with rice.', { text: 'Monday: curry. Tuesday: soup.', chunkDelayMs: 100 });
    const res = await preview(t, token, { bot: draft, queries });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const events = await readLines(res);
    expect(events.map(({ at: _, ...e }) => e)).toEqual([
      { type: 'answer', index: 0, query: queries[0], answer: 'Lentil dal with rice.', sources: [] },
      { type: 'answer', index: 1, query: queries[1], answer: 'Monday: curry. Tuesday: soup.', sources: [] },
      { type: 'done', answered: 2 },
    ]);
    // The first answer went out while the second was still being written (4 chunks, 100 ms apart).
    expect(events[1]!.at - events[0]!.at).toBeGreaterThan(250);
    expect(fake.requests).toHaveLength(2);
    for (const [i, request] of fake.requests.entries()) {
      expect(systemPromptOf(request)).toContain('You are Meal Planner, a vegetarian cook.');
      const user = request.body.messages.filter((m) => m.role === 'user');
      expect(user.map(messageText)).toEqual([queries[i]]);
    }
  });

  it('reports a query the model failed on and goes on with the next', async () => {
    fake.enqueue({ status: 500, message: 'crashed' }, 'Three dinners.');
    const events = await readLines(await preview(t, token, { bot: draft, queries }));
    expect(events.map(({ at: _, ...e }) => e)).toEqual([
      {
        type: 'failed',
        index: 0,
        query: queries[0],
        message: 'The language model failed to answer (error 500). Please try again.',
      },
      { type: 'answer', index: 1, query: queries[1], answer: 'Three dinners.', sources: [] },
      { type: 'done', answered: 1 },
    ]);
  });

  it('stops asking the model when the client cancels', async () => {
    fake.enqueue({ hang: true }, 'never asked');
    const cancel = new AbortController();
    const res = await preview(t, token, { bot: draft, queries }, cancel.signal);
    expect(res.status).toBe(200);
    while (fake.requests.length === 0) await sleep(10);
    cancel.abort();
    await expect(res.text()).rejects.toThrow();
    for (let i = 0; i < 50 && !fake.requests[0]!.aborted; i += 1) await sleep(20);
    expect(fake.requests[0]!.aborted).toBe(true);
    await sleep(100);
    expect(fake.requests).toHaveLength(1);
  });

  it('validates the draft and the queries', async () => {
    const cases: [unknown, string][] = [
      [{ bot: draft, queries: [] }, 'Add at least one test query'],
      [{ bot: draft, queries: ['Same', 'Same'] }, 'Each example query can be listed only once'],
      [{ bot: { ...draft, name: ' ' }, queries }, 'Name is required'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', '/api/bots/preview-answers', { token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe.each(databaseKinds)('POST /api/bots/preview-answers offline on %s', (kind) => {
  it('refuses with 503 and a clear message', async () => {
    const t = await startTestApp({ kind });
    try {
      const { token } = await signUp(t);
      const res = await t.request('POST', '/api/bots/preview-answers', { token, body: { bot: draft, queries } });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('No language model is connected, so test queries cannot be answered.');
      const anonymous = await t.request('POST', '/api/bots/preview-answers', { body: { bot: draft, queries } });
      expect(anonymous.status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
