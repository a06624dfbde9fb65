import { generateText, stepCountIs, streamText, tool } from 'ai';
import pino from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAi, type Model } from '../../src/server/ai/providers';
import { startFakeLlm, systemPromptOf, toolResultsOf, toolsOffered, type FakeLlm } from './fake-llm';

/** The fake model is what the chat tests lean on, so it is checked against the real AI SDK client. */
describe('fake OpenAI-compatible server', () => {
  let fake: FakeLlm;
  let model: Model;

  beforeAll(async () => {
    fake = await startFakeLlm();
    const log = pino({ level: 'silent' });
    model = (
      await createAi(
        { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: undefined, model: 'fake-model' },
        log,
      )
    ).model!;
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.setReply('Hello from the fake model.'));

  it('answers a plain completion and records the request', async () => {
    fake.enqueue('Plain answer.');
    const result = await generateText({ model, system: 'Be kind.', prompt: 'Hi there', maxRetries: 0 });
    expect(result.text).toBe('Plain answer.');
    expect(systemPromptOf(fake.lastRequest())).toBe('Be kind.');
    expect(fake.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Hi there' });
  });

  it('streams a reply in several chunks, with delays, ending cleanly', async () => {
    fake.enqueue({ text: 'one two three four', chunkDelayMs: 30 });
    const result = streamText({ model, prompt: 'Count', maxRetries: 0 });
    const parts: { text: string; at: number }[] = [];
    for await (const text of result.textStream) parts.push({ text, at: Date.now() });
    expect(parts.map((p) => p.text)).toEqual(['one ', 'two ', 'three ', 'four']);
    expect(parts.at(-1)!.at - parts[0]!.at).toBeGreaterThanOrEqual(60);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(4);
    expect(fake.lastRequest().body.stream).toBe(true);
  });

  it('takes replies from a function of the request, and explicit chunks', async () => {
    fake.setReply((request) => ({ text: '', chunks: ['You said: ', String(request.body.messages.at(-1)!.content)] }));
    const result = streamText({ model, prompt: 'ping', maxRetries: 0 });
    expect(await result.text).toBe('You said: ping');
  });

  it('notices when the client stops a stream that hangs part-way', async () => {
    fake.enqueue({ text: 'first second third', hangAfterChunks: 1 });
    const controller = new AbortController();
    const result = streamText({
      model,
      prompt: 'go',
      abortSignal: controller.signal,
      maxRetries: 0,
      onError: () => {},
    });
    const received: string[] = [];
    for await (const text of result.textStream) {
      received.push(text);
      controller.abort();
    }
    expect(received).toEqual(['first ']);
    await expect.poll(() => fake.lastRequest().aborted).toBe(true);
  });

  it.each([false, true])('calls tools in the OpenAI wire format (streamed: %s)', async (streamed) => {
    fake.enqueue({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, 'It is 5.');
    const tools = {
      add: tool({
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => ({ sum: a + b }),
      }),
    };
    const options = { model, prompt: 'Add 2 and 3', tools, stopWhen: stepCountIs(2), maxRetries: 0 };
    const text = streamed ? await streamText(options).text : (await generateText(options)).text;
    expect(text).toBe('It is 5.');
    expect(toolsOffered(fake.requests.at(-2)!)).toEqual(['add']);
    expect(toolResultsOf(fake.lastRequest())).toEqual([
      { toolCallId: expect.stringMatching(/^call_fake_/), content: '{"sum":5}' },
    ]);
  });

  it('refuses tools when a plan says so, as some local models do', async () => {
    fake.setReply((request) => (request.body.tools ? { status: 400, message: 'no tools here' } : 'Plain.'));
    const tools = { noop: tool({ inputSchema: z.object({}), execute: () => ({}) }) };
    await expect(generateText({ model, prompt: 'x', tools, maxRetries: 0 })).rejects.toThrow('no tools here');
    expect((await generateText({ model, prompt: 'x', maxRetries: 0 })).text).toBe('Plain.');
  });

  it('answers errors with OpenAI-style bodies', async () => {
    fake.enqueue({ status: 503, message: 'overloaded' });
    await expect(generateText({ model, prompt: 'x', maxRetries: 0 })).rejects.toThrow('overloaded');
  });

  it('sends the headers an error plan gives, such as retry-after', async () => {
    fake.enqueue({ status: 429, message: 'slow down', headers: { 'retry-after': '12' } });
    const res = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('12');
  });

  it('lists its model', async () => {
    const res = await fetch(`${fake.baseUrl}/models`);
    expect(await res.json()).toEqual({
      object: 'list',
      data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }],
    });
  });
});

describe('fake reasoning model', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ model: 'gpt-5-mini', reasoningTokens: 500 });
  });
  afterAll(() => fake.close());

  const ask = async (cap: Record<string, number>) => {
    const res = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'Name this' }], ...cap }),
    });
    return (await res.json()) as {
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { completion_tokens: number; completion_tokens_details?: { reasoning_tokens: number } };
    };
  };

  it('spends a cap no larger than its reasoning on thinking, as OpenAI reasoning models do', async () => {
    const cut = await ask({ max_completion_tokens: 300 });
    expect(cut.choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'length' });
    expect(cut.usage).toMatchObject({ completion_tokens: 300, completion_tokens_details: { reasoning_tokens: 300 } });
    expect((await ask({})).choices[0]).toMatchObject({ message: { content: 'Hello from the fake model.' } });
  });
});
