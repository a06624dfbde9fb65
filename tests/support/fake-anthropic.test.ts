import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTHROPIC_MAX_IMAGE_BASE64, startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';

/** The fake must refuse what the real Messages API refuses, or tests against it prove nothing. */
describe('the fake Anthropic Messages API', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());

  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${fake.baseUrl}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: fake.model, max_tokens: 100, ...body }),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const toolHistory = [
    { role: 'user', content: 'Search' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'web_search', input: { query: 'x' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' }] },
  ];

  it('refuses tool_use and tool_result blocks without tools, as the real API does', async () => {
    const refused = await post({ messages: toolHistory });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      },
    });
    const tools = [{ name: 'web_search', input_schema: { type: 'object' } }];
    expect((await post({ messages: toolHistory, tools })).status).toBe(200);
  });

  it('refuses an image over 5 MB of base64, and a request without max_tokens', async () => {
    const image = (length: number) => ({
      role: 'user',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(length) } }],
    });
    const big = await post({ messages: [image(ANTHROPIC_MAX_IMAGE_BASE64 + 4)] });
    expect(big.status).toBe(400);
    expect(big.text).toContain('image exceeds 5 MB maximum');
    expect((await post({ messages: [image(ANTHROPIC_MAX_IMAGE_BASE64)] })).status).toBe(200);
    expect((await post({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: undefined })).status).toBe(400);
  });

  it('streams message_start, content blocks, message_delta with usage, message_stop; errors as events', async () => {
    fake.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'vitamin d' } }], text: 'Let me' },
      { text: '', errorAfterChunks: { at: 0, error: { type: 'overloaded_error', message: 'Overloaded' } } },
      { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' }, headers: { 'retry-after': '3' } },
    );
    const messages = [{ role: 'user', content: 'Hi' }];
    const streamed = await post({ messages, stream: true });
    const events = [...streamed.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(streamed.text).toContain('"type":"input_json_delta"');
    expect(streamed.text).toMatch(/"stop_reason":"tool_use".*"usage":\{"output_tokens":\d+\}/);

    const overloaded = await post({ messages, stream: true });
    expect(overloaded.text).toContain('event: error\ndata: {"type":"error","error":{"type":"overloaded_error"');

    const busy = await post({ messages });
    expect(busy.status).toBe(529);
    expect(busy.headers.get('retry-after')).toBe('3');
  });
});
