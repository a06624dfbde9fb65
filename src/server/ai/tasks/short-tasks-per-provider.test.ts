import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../../../tests/support/fake-anthropic';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { createAi, type Ai, type Model } from '../providers';
import { conversationTitleFor } from './conversation-title';
import { judgeAnswer } from './judge-answer';

const API_KEY = 'sk-test-key-not-real';
const log = pino({ level: 'silent' });
const judgeCase = {
  bot: { name: 'Nutri', description: 'Answers nutrition questions', purpose: 'answering' as const },
  query: 'How much vitamin D?',
  answer: '600 IU a day for most adults.',
};

describe('the short tasks on Anthropic', () => {
  let fake: FakeAnthropic;
  let ai: Ai & { model: Model };
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    ai = (await createAi(
      { provider: 'anthropic', baseUrl: fake.baseUrl, apiKey: API_KEY, model: 'claude-sonnet-4-5' },
      log,
    )) as Ai & { model: Model };
  });
  afterAll(() => fake.close());

  it('names a conversation and judges an answer (a forced json tool) with small caps', async () => {
    fake.setTitleReply('Vitamin D for adults');
    const title = await conversationTitleFor({ ai, log }, { question: 'Vitamin D?', reply: 'Yes.' });
    expect(title).toBe('Vitamin D for adults');
    expect(fake.titleRequests.at(-1)!.body.max_tokens).toBe(30);

    fake.enqueue({ toolCalls: [{ name: 'json', arguments: { verdict: 'pass', score: 4, reason: 'It answers.' } }] });
    const verdict = await judgeAnswer(ai, judgeCase, new AbortController().signal);
    expect(verdict).toEqual({ verdict: 'pass', score: 4, reason: 'It answers.' });
    expect(fake.lastRequest().body.max_tokens).toBe(300);
  });

  it('asks a busy judge again as its retry-after says, and not a failing one', async () => {
    const overloaded = { type: 'overloaded_error', message: 'Overloaded' };
    fake.requests.length = 0;
    fake.enqueue(
      { status: 529, error: overloaded, headers: { 'retry-after': '0' } },
      { toolCalls: [{ name: 'json', arguments: { verdict: 'fail', reason: 'Off topic.' } }] },
    );
    expect(await judgeAnswer(ai, judgeCase, new AbortController().signal)).toEqual({
      verdict: 'fail',
      score: null,
      reason: 'Off topic.',
    });
    expect(fake.requests).toHaveLength(2);

    fake.requests.length = 0;
    fake.enqueue({ status: 500, error: { type: 'api_error', message: 'Internal' } });
    await expect(judgeAnswer(ai, judgeCase, new AbortController().signal)).rejects.toThrow('Internal');
    expect(fake.requests).toHaveLength(1);
  });
});

describe.each([
  { kind: 'openai' as const, model: 'gpt-5-mini' },
  { kind: 'openai-compatible' as const, model: 'deepseek-r1:8b' },
])('a reasoning model ($kind, $model) names conversations and judges answers', ({ kind, model }) => {
  let fake: FakeLlm;
  let ai: Ai & { model: Model };
  beforeAll(async () => {
    // Like OpenAI's reasoning models: any cap up to 1,000 tokens is spent thinking, and the answer is empty.
    fake = await startFakeLlm({ model, reasoningTokens: 1000 });
    ai = (await createAi({ provider: kind, baseUrl: fake.baseUrl, apiKey: API_KEY, model }, log)) as Ai & {
      model: Model;
    };
  });
  afterAll(() => fake.close());

  it('sends no cap its reasoning would use up, and low reasoning effort on OpenAI', async () => {
    fake.setTitleReply('Vitamin D for adults');
    fake.setReply('Vitamin D for adults');
    const title = await conversationTitleFor({ ai, log }, { question: 'Vitamin D?', reply: 'Yes.' });
    expect(title).toBe('Vitamin D for adults');

    fake.setReply(JSON.stringify({ verdict: 'pass', reason: 'It answers.' }));
    const verdict = await judgeAnswer(ai, judgeCase, new AbortController().signal);
    expect(verdict).toEqual({ verdict: 'pass', score: null, reason: 'It answers.' });

    const sent = [...fake.titleRequests, ...fake.requests].map((r) => r.body);
    expect(sent).toHaveLength(2);
    for (const body of sent) {
      expect(body.max_completion_tokens ?? body.max_tokens).toBeUndefined();
      expect(body.reasoning_effort).toBe(kind === 'openai' ? 'low' : undefined);
    }
  });
});
