import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import {
  evaluationEventSchema,
  type Evaluation,
  type EvaluationEvent,
  type EvaluationSummary,
} from '@shared/contracts/evaluations';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  messageText,
  startFakeLlm,
  systemPromptOf,
  type FakeLlm,
  type ReceivedRequest,
} from '../../../../tests/support/fake-llm';
import {
  signUp,
  startTestApp,
  startTestAppWithModel,
  type SignedUp,
  type TestApp,
  withAliceAndBob,
} from '../../../../tests/support/test-app';

const isJudge = (r: ReceivedRequest) => systemPromptOf(r).startsWith('You judge the answers');
const userText = (r: ReceivedRequest) => messageText(r.body.messages.find((m) => m.role === 'user'));

/** Answers quote the prompt's first words; the judge passes answers that mention soup. */
function playBotAndJudge(r: ReceivedRequest) {
  if (!isJudge(r)) return `Answer by: ${systemPromptOf(r).split('.')[0]}`;
  const pass = /soup/i.test(userText(r).split('Answer:')[1] ?? '');
  return JSON.stringify({ verdict: pass ? 'pass' : 'fail', reason: pass ? 'Mentions soup.' : 'No soup in sight.' });
}

async function run(t: TestApp, token: string, botId: number, body: unknown = {}, signal?: AbortSignal) {
  return fetch(`${t.url}/api/bots/${botId}/evaluations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

async function events(res: Response): Promise<EvaluationEvent[]> {
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => evaluationEventSchema.parse(JSON.parse(line)));
}

describe.each(databaseKinds)('evaluations on %s', (kind) => {
  let fake: FakeLlm;
  let t: Awaited<ReturnType<typeof startTestAppWithModel>>;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestAppWithModel({ kind, model: { reply: playBotAndJudge } })));
    fake = t.fake;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const souper = (overrides: Parameters<typeof createBot>[2] = {}) =>
    createBot(t, alice.token, {
      description: 'Suggests soups for every season',
      config: { systemPrompt: 'You are the soup chef. Suggest soups.' },
      exampleQueries: ['Dinner tonight?', 'Something warm?'],
      testNotes: [{ query: 'Something warm?', rating: 'bad', expected: 'A soup with a recipe' }],
      ...overrides,
    });

  it('answers and judges each query of the test set, stores the results and lists them', async () => {
    const bot = await souper();
    const received = await events(await run(t, alice.token, bot.id));
    expect(received.map((e) => e.type)).toEqual(['started', 'result', 'result', 'done']);
    const done = received.at(-1) as Extract<EvaluationEvent, { type: 'done' }>;
    expect(done.evaluation).toMatchObject({ botId: bot.id, version: 1, status: 'done', total: 2, passed: 2 });

    const stored = await t.request<Evaluation>('GET', `/api/bots/${bot.id}/evaluations/${done.evaluation.id}`, {
      token: alice.token,
    });
    expect(stored.body.results).toEqual([
      {
        index: 0,
        query: 'Dinner tonight?',
        answer: 'Answer by: You are the soup chef',
        verdict: 'pass',
        reason: 'Mentions soup.',
        error: null,
      },
      {
        index: 1,
        query: 'Something warm?',
        answer: 'Answer by: You are the soup chef',
        verdict: 'pass',
        reason: 'Mentions soup.',
        error: null,
      },
    ]);
    // The judge's rubric: the bot's purpose and description, and the user's expectation for the query.
    const judged = fake.requests.filter(isJudge).map(userText);
    expect(judged[0]).toContain('Description: Suggests soups for every season');
    expect(judged[0]).toContain('Purpose: Planning & organization');
    expect(judged[0]).not.toContain('The user expects');
    expect(judged[1]).toContain('The user expects: A soup with a recipe');

    const list = await t.request<EvaluationSummary[]>('GET', `/api/bots/${bot.id}/evaluations`, {
      token: alice.token,
    });
    expect(list.body).toEqual([done.evaluation]);
  });

  it('runs an earlier version with its own prompt, so two versions compare query by query', async () => {
    const bot = await souper();
    await t.request<Bot>('PATCH', `/api/bots/${bot.id}`, {
      token: alice.token,
      body: { config: { systemPrompt: 'You are the salad chef. Suggest salads.' } },
    });
    const current = (await events(await run(t, alice.token, bot.id))).at(-1) as { evaluation: EvaluationSummary };
    const earlier = (await events(await run(t, alice.token, bot.id, { version: 1 }))).at(-1) as {
      evaluation: EvaluationSummary;
    };
    expect(current.evaluation).toMatchObject({ version: 2, passed: 0 });
    expect(earlier.evaluation).toMatchObject({ version: 1, passed: 2 });
    const answers = fake.requests.filter((r) => !isJudge(r)).map(systemPromptOf);
    expect(answers[0]).toContain('You are the salad chef');
    expect(answers[2]).toContain('You are the soup chef');
    const failed = await t.request<Evaluation>('GET', `/api/bots/${bot.id}/evaluations/${current.evaluation.id}`, {
      token: alice.token,
    });
    expect(failed.body.results.map((r) => [r.verdict, r.reason])).toEqual([
      ['fail', 'No soup in sight.'],
      ['fail', 'No soup in sight.'],
    ]);
  });

  it('runs one evaluation per bot at a time, and a cancelled one stops asking the model', async () => {
    const bot = await souper();
    fake.enqueue({ hang: true });
    const cancel = new AbortController();
    const first = await run(t, alice.token, bot.id, {}, cancel.signal);
    expect(first.status).toBe(200);
    while (fake.requests.length === 0) await sleep(10);

    const second = await run(t, alice.token, bot.id);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ message: 'An evaluation of this botty is already running.' });
    // Another bot is not held up.
    const other = await souper();
    expect((await events(await run(t, alice.token, other.id))).at(-1)).toMatchObject({ type: 'done' });

    cancel.abort();
    await expect(first.text()).rejects.toThrow();
    await expect.poll(() => fake.requests[0]!.aborted).toBe(true);
    const list = async () =>
      (await t.request<EvaluationSummary[]>('GET', `/api/bots/${bot.id}/evaluations`, { token: alice.token })).body;
    await expect.poll(async () => (await list())[0]?.status).toBe('cancelled');
    expect((await events(await run(t, alice.token, bot.id))).at(-1)).toMatchObject({ type: 'done' });
  });

  it('refuses an empty test set, a missing version and what is not the caller’s', async () => {
    const empty = await souper({ exampleQueries: [] });
    const res = await run(t, alice.token, empty.id);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      message: 'Add example queries to the test set before running an evaluation.',
    });
    const bot = await souper();
    const missing = await run(t, alice.token, bot.id, { version: 7 });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'Version not found' });
    expect((await run(t, alice.token, bot.id, { version: 0 })).status).toBe(400);

    const done = (await events(await run(t, alice.token, bot.id))).at(-1) as { evaluation: EvaluationSummary };
    for (const [method, path] of [
      ['POST', `/api/bots/${bot.id}/evaluations`],
      ['GET', `/api/bots/${bot.id}/evaluations`],
      ['GET', `/api/bots/${bot.id}/evaluations/${done.evaluation.id}`],
    ] as const) {
      const theirs = await t.request(method, path, { token: bob.token, body: method === 'POST' ? {} : undefined });
      expect(theirs.status, path).toBe(404);
    }
    const wrongBot = await t.request('GET', `/api/bots/${empty.id}/evaluations/${done.evaluation.id}`, {
      token: alice.token,
    });
    expect(wrongBot.status).toBe(404);
    expect(wrongBot.body).toMatchObject({ message: 'Evaluation not found' });
  });
});

describe.each(databaseKinds)('evaluations without a model or over the limit on %s', (kind) => {
  it('refuses offline with a clear message', async () => {
    const t = await startTestApp({ kind });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token, { exampleQueries: ['Dinner?'] });
      const res = await run(t, token, bot.id);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ message: 'No language model is connected, so evaluations cannot run.' });
    } finally {
      await t.close();
    }
  });

  it('counts two model calls per query against the user limit, refusing before anything runs', async () => {
    const fake = await startFakeLlm({ reply: playBotAndJudge });
    const t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' },
      chatRateLimit: { max: 5, timeWindow: 60_000 },
    });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token, { exampleQueries: ['Dinner?', 'Lunch?'] });
      expect((await events(await run(t, token, bot.id))).at(-1)).toMatchObject({ type: 'done' });
      const refused = await run(t, token, bot.id);
      expect(refused.status).toBe(429);
      const list = await t.request<EvaluationSummary[]>('GET', `/api/bots/${bot.id}/evaluations`, { token });
      expect(list.body).toHaveLength(1);
      expect(fake.requests).toHaveLength(4);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
