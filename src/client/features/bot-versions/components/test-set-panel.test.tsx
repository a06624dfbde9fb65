import { screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import type { Evaluation, EvaluationEvent, EvaluationResult, EvaluationSummary } from '@shared/contracts/evaluations';
import type { TestCase } from '@shared/contracts/test-cases';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { TestSetPanel } from './test-set-panel';

const QUERIES = ['Soup tonight?', 'Something warm?'];

const summary = (over: Partial<EvaluationSummary>): EvaluationSummary => ({
  id: 1,
  botId: 7,
  version: 1,
  status: 'done',
  total: 2,
  completed: 2,
  passed: 2,
  judgeUnavailable: 0,
  faithfulness: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...over,
});

const result = (index: number, over: Partial<EvaluationResult>): EvaluationResult => ({
  index,
  testCaseId: index + 1,
  query: QUERIES[index]!,
  answer: `Answer ${index}`,
  verdict: 'pass',
  score: 4,
  reason: 'Fine.',
  error: null,
  faithfulness: null,
  ...over,
});

const testCase = (id: number, query: string, expected: string | null = null): TestCase => ({
  id,
  botId: 7,
  query,
  expected,
  tags: [],
  sourceMessageId: null,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
});

const ndjson = (events: EvaluationEvent[]) =>
  new Response(events.map((e) => JSON.stringify(e)).join('\n') + '\n', {
    headers: { 'content-type': 'application/x-ndjson' },
  });

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  signIn();
  server.json('GET', '/api/bots/7/tests', [testCase(1, QUERIES[0]!), testCase(2, QUERIES[1]!, 'A soup')]);
});

const renderPanel = () => renderScreen(<TestSetPanel botId={7} selected={1} current={2} />, '/bots/7/versions');

it('reads the test set from the test cases and sends the owner to the Tests page to edit it', async () => {
  server.json('GET', '/api/bots/7/evaluations', []);
  const { user } = renderPanel();
  expect(await screen.findByText('2 test cases, answered by a version and judged pass or fail.')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Edit tests' }).getAttribute('href')).toBe('/bots/7/tests');
  await user.click(screen.getByText('Questions asked'));
  const cases = screen.getByRole('list', { name: 'Test cases' });
  expect(cases.textContent).toContain('Soup tonight?');
  expect(cases.textContent).toContain('Expected: A soup');
  expect(screen.getByRole('button', { name: 'Run on version 2' })).toBeTruthy();
});

it('has nothing to run without test cases, and says where to add them', async () => {
  server.json('GET', '/api/bots/7/tests', []);
  server.json('GET', '/api/bots/7/evaluations', []);
  renderPanel();
  expect(
    await screen.findByText(/No test cases yet\. Add questions with expected answers on the Tests page/),
  ).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Add tests' }).getAttribute('href')).toBe('/bots/7/tests');
  expect(screen.queryByRole('button', { name: /Run on version/ })).toBeNull();
});

it('shows how much of each answer its sources support, and the run’s average beside its pass rate', async () => {
  const run = summary({ id: 5, version: 2, faithfulness: 0.75 });
  server.json('GET', '/api/bots/7/evaluations', [run]);
  server.json('GET', '/api/bots/7/evaluations/5', {
    ...run,
    results: [result(0, { faithfulness: 0.5 }), result(1, {})],
  } as Evaluation);
  renderPanel();
  expect(
    await screen.findByRole('button', { name: /Version 2: 2 of 2 passed · 75% supported by sources/ }),
  ).toBeTruthy();
  // Only the answer that had sources is scored.
  expect(await screen.findByText('50% supported by sources')).toBeTruthy();
  expect(screen.getAllByText(/^\d+% supported by sources$/)).toHaveLength(1);
});

it('reads the newest run against the one before it: the verdict line, regressions, and a judge that could not say', async () => {
  const first = summary({ id: 1, version: 1 });
  const second = summary({ id: 2, version: 2, passed: 0, judgeUnavailable: 1 });
  server.json('GET', '/api/bots/7/evaluations', [second, first]);
  server.json('GET', '/api/bots/7/evaluations/1', { ...first, results: [result(0, {}), result(1, {})] } as Evaluation);
  server.json('GET', '/api/bots/7/evaluations/2', {
    ...second,
    results: [
      result(0, { verdict: 'fail', score: 2, reason: 'Too cold.' }),
      result(1, {
        verdict: 'judge_unavailable',
        score: null,
        reason: null,
        error: 'The judge could not give a verdict.',
      }),
    ],
  } as Evaluation);
  renderPanel();

  expect(await screen.findByText('Version 2 vs version 1: 1 regression, 1 not compared')).toBeTruthy();
  expect(screen.getByText('1 regression')).toBeTruthy();
  expect(screen.getByRole('button', { name: /Version 2: 0 of 1 passed/ }).getAttribute('aria-pressed')).toBe('true');
  expect(screen.getByRole('button', { name: /Version 1: 2 of 2 passed/ })).toBeTruthy();
  // Neither pass nor fail: a neutral badge, with why.
  const unavailable = screen.getByText('Judge unavailable');
  expect(unavailable.className).not.toMatch(/destructive|success/);
  expect(screen.getByText('The judge could not give a verdict.')).toBeTruthy();
  expect(screen.getByText('Too cold.')).toBeTruthy();
  expect(screen.getByText('Not compared')).toBeTruthy();
});

it('follows a running run from its events and cancels it; starting one only queues it', async () => {
  const running = summary({ id: 3, version: 2, status: 'running', completed: 0, passed: 0 });
  let list = [running];
  server.json('GET', '/api/bots/7/evaluations', () => list);
  server.on('GET', '/api/bots/7/evaluations/3/events', () =>
    ndjson([
      { type: 'started', evaluation: running },
      { type: 'result', result: result(0, {}) },
    ]),
  );
  server.json('POST', '/api/bots/7/evaluations/3/cancel', () => {
    list = [{ ...running, status: 'cancelled', completed: 1 }];
    return list[0]!;
  });
  server.json('POST', '/api/bots/7/evaluations', summary({ id: 4, status: 'queued', completed: 0 }), 202);
  const { user } = renderPanel();

  expect(await screen.findByText('Testing version 2: 1 of 2')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Run on version 2' })).toHaveProperty('disabled', true);
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(server.sent('POST', '/api/bots/7/evaluations/3/cancel')).toHaveLength(1);
  expect(await screen.findByRole('button', { name: /Version 2: cancelled, 1 of 2 answered/ })).toBeTruthy();
  expect(screen.queryByText(/Testing version/)).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Run on version 1' }));
  await waitFor(() => expect(server.sent('POST', '/api/bots/7/evaluations')).toHaveLength(1));
  expect(server.sent('POST', '/api/bots/7/evaluations')[0]!.body).toEqual({ version: 1 });
});
