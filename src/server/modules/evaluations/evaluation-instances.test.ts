import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationEventSchema, type Evaluation, type EvaluationSummary } from '@shared/contracts/evaluations';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { systemPromptOf, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { signUp, type SignedUp } from '../../../../tests/support/test-app';
import { startTwoInstances, type TwoInstances } from '../../../../tests/support/two-instances';

const isJudge = (r: ReceivedRequest) => systemPromptOf(r).startsWith('You judge the answers');
const judgeOrAnswer = (r: ReceivedRequest) =>
  isJudge(r) ? JSON.stringify({ verdict: 'pass', score: 5, reason: 'Good.' }) : 'An answer.';

describe.runIf(databaseKinds.includes('postgres'))('evaluations on two instances sharing PostgreSQL', () => {
  let two: TwoInstances;
  let alice: SignedUp;
  beforeAll(async () => {
    two = await startTwoInstances();
    alice = await signUp(two.a);
  });
  afterAll(() => two.close());

  const events = async (url: string, botId: number, id: number) => {
    const res = await fetch(`${url}/api/bots/${botId}/evaluations/${id}/events`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    return (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => evaluationEventSchema.parse(JSON.parse(line)));
  };

  it('is followed from the other instance to its end, and cancelled from there', async () => {
    const bot = await createBot(two.a, alice.token, { exampleQueries: ['Soup?', 'Stew?'] });
    two.fake.setReply(judgeOrAnswer);
    const queued = await two.a.request<EvaluationSummary>('POST', `/api/bots/${bot.id}/evaluations`, {
      token: alice.token,
      body: {},
    });
    expect(queued.status).toBe(202);
    const followed = await events(two.b.url, bot.id, queued.body.id);
    expect(followed.map((e) => e.type)).toEqual(['started', 'result', 'result', 'done']);
    expect(followed.at(-1)).toMatchObject({ evaluation: { status: 'done', passed: 2 } });

    // A run hanging on whichever instance claimed it stops when the other cancels it.
    const asked = two.fake.requests.length;
    two.fake.enqueue({ hang: true });
    const second = await two.b.request<EvaluationSummary>('POST', `/api/bots/${bot.id}/evaluations`, {
      token: alice.token,
      body: {},
    });
    await expect.poll(() => two.fake.requests.length).toBe(asked + 1);
    for (const instance of [two.a, two.b]) {
      const cancelled = await instance.request<EvaluationSummary>(
        'POST',
        `/api/bots/${bot.id}/evaluations/${second.body.id}/cancel`,
        { token: alice.token },
      );
      expect(cancelled.body.status).toBe('cancelled');
    }
    await expect.poll(() => two.fake.requests[asked]!.aborted, { timeout: 15_000 }).toBe(true);
    const stored = await two.a.request<Evaluation>('GET', `/api/bots/${bot.id}/evaluations/${second.body.id}`, {
      token: alice.token,
    });
    expect(stored.body).toMatchObject({ status: 'cancelled', completed: 0, results: [] });
    expect(two.fake.requests).toHaveLength(asked + 1);
  });
});
