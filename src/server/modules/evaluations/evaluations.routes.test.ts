import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import {
  evaluationEventSchema,
  type Evaluation,
  type EvaluationComparison,
  type EvaluationEvent,
  type EvaluationSummary,
} from '@shared/contracts/evaluations';
import { anotherConnection, databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { appsWithFiles, uploadSettled } from '../../../../tests/support/files-api';
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
const questionOf = (r: ReceivedRequest) => (isJudge(r) ? /Question: (.*)/.exec(userText(r))?.[1] : userText(r));

/** Answers quote the prompt's first words; the judge passes answers that mention soup, and scores them. */
function playBotAndJudge(r: ReceivedRequest) {
  if (!isJudge(r)) return `Answer by: ${systemPromptOf(r).split('.')[0]}`;
  const pass = /soup/i.test(userText(r).split('Answer:')[1] ?? '');
  return JSON.stringify(
    pass ? { verdict: 'pass', score: 4, reason: 'Mentions soup.' } : { verdict: 'fail', reason: 'No soup in sight.' },
  );
}

const queue = (t: TestApp, token: string, botId: number, body: unknown = {}) =>
  t.request<EvaluationSummary>('POST', `/api/bots/${botId}/evaluations`, { token, body });

async function queued(t: TestApp, token: string, botId: number, body: unknown = {}) {
  const res = await queue(t, token, botId, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

/** The run's events from the start until it ends. */
async function watch(t: TestApp, token: string, botId: number, id: number): Promise<EvaluationEvent[]> {
  const res = await fetch(`${t.url}/api/bots/${botId}/evaluations/${id}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/x-ndjson');
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => evaluationEventSchema.parse(JSON.parse(line)));
}

const read = async (t: TestApp, token: string, botId: number, id: number) =>
  (await t.request<Evaluation>('GET', `/api/bots/${botId}/evaluations/${id}`, { token })).body;

/** Waits, without watching, until the run left `queued`/`running`. */
async function ended(t: TestApp, token: string, botId: number, id: number) {
  await expect.poll(async () => (await read(t, token, botId, id)).status).not.toMatch(/^(queued|running)$/);
  return read(t, token, botId, id);
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
    fake.supportRequests.length = 0;
  });

  const souper = (overrides: Parameters<typeof createBot>[2] = {}) =>
    createBot(t, alice.token, {
      description: 'Suggests soups for every season',
      config: { systemPrompt: 'You are the soup chef. Suggest soups.' },
      exampleQueries: ['Dinner tonight?', 'Something warm?'],
      testNotes: [{ query: 'Something warm?', rating: 'bad', expected: 'A soup with a recipe' }],
      ...overrides,
    });

  it('queues a run (202 at once), runs it with nobody watching, and replays it to whoever watches later', async () => {
    const bot = await souper();
    const run = await queued(t, alice.token, bot.id);
    expect(run).toMatchObject({ botId: bot.id, version: 1, status: 'queued', total: 2, completed: 0, passed: 0 });

    const stored = await ended(t, alice.token, bot.id, run.id);
    expect(stored).toMatchObject({
      status: 'done',
      total: 2,
      completed: 2,
      passed: 2,
      judgeUnavailable: 0,
      faithfulness: null,
    });
    expect(fake.supportRequests).toHaveLength(0);
    expect(stored.results).toEqual([
      {
        index: 0,
        testCaseId: expect.any(Number),
        query: 'Dinner tonight?',
        answer: 'Answer by: You are the soup chef',
        verdict: 'pass',
        score: 4,
        reason: 'Mentions soup.',
        error: null,
        faithfulness: null,
      },
      {
        index: 1,
        testCaseId: expect.any(Number),
        query: 'Something warm?',
        answer: 'Answer by: You are the soup chef',
        verdict: 'pass',
        score: 4,
        reason: 'Mentions soup.',
        error: null,
        faithfulness: null,
      },
    ]);
    // The judge's rubric: the bot's purpose and description, and the expectation of the test case.
    const judged = fake.requests.filter(isJudge).map(userText);
    expect(judged[0]).toContain('Description: Suggests soups for every season');
    expect(judged[0]).toContain('Purpose: Planning & organization');
    expect(judged[0]).not.toContain('The user expects');
    expect(judged[1]).toContain('The user expects: A soup with a recipe');

    const replayed = await watch(t, alice.token, bot.id, run.id);
    expect(replayed.map((e) => e.type)).toEqual(['started', 'result', 'result', 'done']);
    expect(replayed.at(-1)).toMatchObject({ type: 'done', evaluation: { status: 'done', passed: 2 } });
    const list = await t.request<EvaluationSummary[]>('GET', `/api/bots/${bot.id}/evaluations`, {
      token: alice.token,
    });
    const { results: _, ...summary } = stored;
    expect(list.body).toEqual([summary]);
  });

  it('follows a running evaluation live, and runs an earlier version with its own prompt', async () => {
    const bot = await souper();
    await t.request<Bot>('PATCH', `/api/bots/${bot.id}`, {
      token: alice.token,
      body: { config: { systemPrompt: 'You are the salad chef. Suggest salads.' } },
    });
    const current = await queued(t, alice.token, bot.id);
    const events = await watch(t, alice.token, bot.id, current.id);
    expect(events.map((e) => e.type)).toEqual(['started', 'result', 'result', 'done']);
    expect(events.at(-1)).toMatchObject({ evaluation: { version: 2, status: 'done', passed: 0 } });

    const earlier = await queued(t, alice.token, bot.id, { version: 1 });
    expect(await ended(t, alice.token, bot.id, earlier.id)).toMatchObject({ version: 1, passed: 2 });
    const answers = fake.requests.filter((r) => !isJudge(r)).map(systemPromptOf);
    expect(answers[0]).toContain('You are the salad chef');
    expect(answers[2]).toContain('You are the soup chef');

    // Version 2 vs version 1, and back: every question regressed, then got better.
    const compare = (before: number, after: number) =>
      t.request<EvaluationComparison>(
        'GET',
        `/api/bots/${bot.id}/evaluations/compare?before=${before}&after=${after}`,
        { token: alice.token },
      );
    const worse = (await compare(earlier.id, current.id)).body;
    expect(worse.verdict).toBe('Version 2 vs version 1: 2 regressions');
    expect(worse.questions.map((q) => q.change)).toEqual(['regression', 'regression']);
    expect(worse.passRate).toEqual({ before: 1, after: 0 });
    expect((await compare(current.id, earlier.id)).body.verdict).toBe('Version 1 vs version 2: 2 better');
  });

  it('counts an answer the judge could not grade as judge unavailable, neither passed nor failed', async () => {
    const bot = await souper();
    fake.enqueue(playBotAndJudge, { status: 500, message: 'Judge down' });
    const run = await queued(t, alice.token, bot.id);
    const stored = await ended(t, alice.token, bot.id, run.id);
    expect(stored).toMatchObject({ status: 'done', passed: 1, judgeUnavailable: 1, completed: 2 });
    expect(stored.results[0]).toMatchObject({
      verdict: 'judge_unavailable',
      answer: 'Answer by: You are the soup chef',
      score: null,
      error: 'The judge could not give a verdict.',
    });

    const again = await queued(t, alice.token, bot.id);
    await ended(t, alice.token, bot.id, again.id);
    const compared = await t.request<EvaluationComparison>(
      'GET',
      `/api/bots/${bot.id}/evaluations/compare?before=${run.id}&after=${again.id}`,
      { token: alice.token },
    );
    expect(compared.body.passRate).toEqual({ before: 1, after: 1 });
    expect(compared.body.verdict).toBe('Version 1 vs version 1: 1 not compared');
  });

  it('runs one evaluation per bot at a time; cancelling stops asking the model and keeps what it has', async () => {
    const bot = await souper();
    fake.enqueue({ hang: true });
    const first = await queued(t, alice.token, bot.id);
    while (fake.requests.length === 0) await sleep(10);

    const second = await queue(t, alice.token, bot.id);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ message: 'An evaluation of this botty is already running.' });
    // Another bot is not held up.
    const other = await souper();
    const otherRun = await queued(t, alice.token, other.id);
    expect(await ended(t, alice.token, other.id, otherRun.id)).toMatchObject({ status: 'done' });

    const cancel = () =>
      t.request<EvaluationSummary>('POST', `/api/bots/${bot.id}/evaluations/${first.id}/cancel`, {
        token: alice.token,
      });
    expect((await cancel()).body).toMatchObject({ id: first.id, status: 'cancelled' });
    await expect.poll(() => fake.requests[0]!.aborted).toBe(true);
    const events = await watch(t, alice.token, bot.id, first.id);
    expect(events.map((e) => e.type)).toEqual(['started', 'done']);
    expect(events.at(-1)).toMatchObject({ evaluation: { status: 'cancelled', completed: 0 } });
    // Idempotent: cancelling again says how it ended.
    expect((await cancel()).body).toMatchObject({ status: 'cancelled' });
    const next = await queued(t, alice.token, bot.id);
    expect(await ended(t, alice.token, bot.id, next.id)).toMatchObject({ status: 'done' });
  });

  it('resumes a run whose instance died once its lease has passed, asking only what was not stored', async () => {
    const bot = await souper();
    const past = new Date(Date.now() - 60_000).toISOString();
    const questions = [
      { id: 1, query: 'Dinner tonight?', expected: null },
      { id: 2, query: 'Something warm?', expected: 'A soup with a recipe' },
    ];
    const { id } = await t.db.kysely
      .insertInto('evaluations')
      .values({
        bot_id: bot.id,
        bot_version: 1,
        status: 'running',
        total: 2,
        lease_until: past,
        release_id: null,
        test_set: JSON.stringify(questions),
        created_at: past,
        updated_at: past,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('evaluation_results')
      .values({
        evaluation_id: id,
        ord: 0,
        test_case_id: 1,
        query: 'Dinner tonight?',
        answer: 'Soup.',
        verdict: 'pass',
        score: 3,
        reason: 'Soup.',
        error: null,
      })
      .execute();
    // Queuing another run wakes the runner, which takes the oldest claimable run first.
    const other = await souper({ exampleQueries: ['Lunch?'], testNotes: [] });
    await queued(t, alice.token, other.id);

    const resumed = await ended(t, alice.token, bot.id, id);
    expect(resumed).toMatchObject({ status: 'done', completed: 2, passed: 2 });
    expect(resumed.results[0]).toMatchObject({ answer: 'Soup.', score: 3 });
    const asked = fake.requests.filter((r) => !isJudge(r)).map(questionOf);
    expect(asked).not.toContain('Dinner tonight?');
    expect(asked.filter((q) => q === 'Something warm?')).toHaveLength(1);
  });

  it('refuses an empty test set, a missing version and what is not the caller’s', async () => {
    const empty = await souper({ exampleQueries: [] });
    const res = await queue(t, alice.token, empty.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Add test cases on the Tests page before running an evaluation.' });
    const bot = await souper();
    const missing = await queue(t, alice.token, bot.id, { version: 7 });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: 'Version not found' });
    expect((await queue(t, alice.token, bot.id, { version: 0 })).status).toBe(400);

    const run = await queued(t, alice.token, bot.id);
    await ended(t, alice.token, bot.id, run.id);
    for (const [method, path] of [
      ['POST', `/api/bots/${bot.id}/evaluations`],
      ['GET', `/api/bots/${bot.id}/evaluations`],
      ['GET', `/api/bots/${bot.id}/evaluations/${run.id}`],
      ['GET', `/api/bots/${bot.id}/evaluations/${run.id}/events`],
      ['POST', `/api/bots/${bot.id}/evaluations/${run.id}/cancel`],
      ['GET', `/api/bots/${bot.id}/evaluations/compare?before=${run.id}&after=${run.id}`],
    ] as const) {
      const theirs = await t.request(method, path, { token: bob.token, body: method === 'POST' ? {} : undefined });
      expect(theirs.status, path).toBe(404);
    }
    for (const path of [`/evaluations/${run.id}`, `/evaluations/compare?before=${run.id}&after=${run.id}`]) {
      const wrongBot = await t.request('GET', `/api/bots/${empty.id}${path}`, { token: alice.token });
      expect(wrongBot.status).toBe(404);
      expect(wrongBot.body).toMatchObject({ message: 'Evaluation not found' });
    }
  });
});

/** Answers cite the recalibration passage when it was given, and add a sentence no passage says. */
function citeAndInvent(r: ReceivedRequest) {
  if (isJudge(r)) return JSON.stringify({ verdict: 'pass', score: 5, reason: 'Right.' });
  const n = /\[(\d+)\] \(recalibration\.txt/.exec(systemPromptOf(r))?.[1];
  return n ? `Recalibrate it every 42 days [${n}]. It also plays music at night.` : 'I do not know.';
}

describe.each(databaseKinds)('evaluation answers checked against their sources on %s', (kind) => {
  const apps = appsWithFiles(kind, 'botty-evaluations-');

  it('scores the faithfulness of an answer with sources, not of one without, and averages the run', async () => {
    const fake = await startFakeLlm({ reply: citeAndInvent });
    try {
      const t = await apps.start({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
      const { token } = await signUp(t);
      const withFile = await createBot(t, token, {
        capabilities: ['document_analysis'],
        config: { citationGeneration: true },
        exampleQueries: ['How often is the Zephyr recalibrated?'],
      });
      const recalibration = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
      const file = await uploadSettled(
        t,
        token,
        `/api/bots/${withFile.id}/files`,
        'recalibration.txt',
        new TextEncoder().encode(recalibration),
      );
      expect(file).toMatchObject({ status: 'ready' });
      const without = await createBot(t, token, { exampleQueries: ['How often is the Zephyr recalibrated?'] });

      const checked = await ended(t, token, withFile.id, (await queued(t, token, withFile.id)).id);
      // The cited sentence is supported, the invented one is not; the verdict is the judge's alone.
      expect(checked.results[0]).toMatchObject({ verdict: 'pass', score: 5, faithfulness: 0.5 });
      expect(checked).toMatchObject({ status: 'done', passed: 1, faithfulness: 0.5 });
      expect(fake.supportRequests).toHaveLength(1);

      const unchecked = await ended(t, token, without.id, (await queued(t, token, without.id)).id);
      expect(unchecked.results[0]).toMatchObject({ answer: 'I do not know.', verdict: 'pass', faithfulness: null });
      expect(unchecked).toMatchObject({ passed: 1, faithfulness: null });
      expect(fake.supportRequests).toHaveLength(1);

      // A judge that fails the support check fails neither the question nor the run.
      fake.setSupportReply({ status: 500, message: 'Judge down' });
      const again = await ended(t, token, withFile.id, (await queued(t, token, withFile.id)).id);
      expect(again).toMatchObject({ status: 'done', passed: 1, completed: 1 });
    } finally {
      await fake.close();
    }
  });
});

describe.each(databaseKinds)('evaluation jobs across a restart on %s', (kind) => {
  it('finishes on the next instance without asking again what was stored', async () => {
    const fake = await startFakeLlm({ reply: playBotAndJudge });
    const env = { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model };
    const first = await startTestApp({ kind, env });
    let second: TestApp | undefined;
    try {
      const { token } = await signUp(first);
      const bot = await createBot(first, token, { exampleQueries: ['Soup?', 'Stew?'] });
      // The first question is answered and judged; the second's answer never comes on this instance.
      fake.enqueue(playBotAndJudge, playBotAndJudge, { hang: true });
      const run = await queued(first, token, bot.id);
      await expect.poll(() => fake.requests.length).toBe(3);
      expect((await read(first, token, bot.id, run.id)).completed).toBe(1);
      await first.close({ keepDb: true });

      second = await startTestApp({ kind, env, testDb: anotherConnection(first.testDb) });
      const stored = await ended(second, token, bot.id, run.id);
      expect(stored).toMatchObject({ status: 'done', completed: 2, total: 2 });
      expect(stored.results.map((r) => r.query)).toEqual(['Soup?', 'Stew?']);
      expect(fake.requests.filter((r) => !isJudge(r)).map(questionOf)).toEqual(['Soup?', 'Stew?', 'Stew?']);
      expect(fake.requests.filter(isJudge).map(questionOf)).toEqual(['Soup?', 'Stew?']);
    } finally {
      await second?.close();
      await first.testDb.drop();
      await fake.close();
    }
  });
});

describe.each(databaseKinds)('evaluations without a model or over the limit on %s', (kind) => {
  it('refuses offline with a clear message', async () => {
    const t = await startTestApp({ kind });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token, { exampleQueries: ['Dinner?'] });
      const res = await queue(t, token, bot.id);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ message: 'No language model is connected, so evaluations cannot run.' });
    } finally {
      await t.close();
    }
  });

  it('counts two model calls per query against the user limit, refusing before anything is queued', async () => {
    const fake = await startFakeLlm({ reply: playBotAndJudge });
    const t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' },
      chatRateLimit: { max: 5, timeWindow: 60_000 },
    });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token, { exampleQueries: ['Dinner?', 'Lunch?'] });
      const run = await queued(t, token, bot.id);
      expect(await ended(t, token, bot.id, run.id)).toMatchObject({ status: 'done' });
      const refused = await queue(t, token, bot.id);
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
