import OpenAI, { type APIError } from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { person, type Person } from '../../../../tests/support/admin-api';
import { createBot } from '../../../../tests/support/factories';
import { startFakeAnthropic, type FakeAnthropic } from '../../../../tests/support/fake-anthropic';
import { startFakeLlm, toolResultsOf, toolsOffered, type FakeLlm } from '../../../../tests/support/fake-llm';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    strict: true,
  },
};
const QUESTION: ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Paris?' };
const Recipe = z.object({ title: z.string(), minutes: z.number() });
const RECIPE = { title: 'Lentil soup', minutes: 40 };

/**
 * The official `openai` package against /v1, as an agent developer uses it: tools and their calls, tool results
 * sent back, structured output, the sampling parameters, and what a provider cannot honour. The env's model is
 * an OpenAI-compatible server; a second connection is Anthropic's.
 */
describe('the OpenAI tool protocol on /v1', () => {
  let fake: FakeLlm;
  let claude: FakeAnthropic;
  let t: TestApp;
  let owner: Person;
  let client: OpenAI;
  let botModel = '';
  let claudeModel = '';
  let webModel = '';
  let opusModel = '';

  beforeAll(async () => {
    fake = await startFakeLlm();
    // A model that takes sampling settings (newer ones refuse temperature and top_p).
    claude = await startFakeAnthropic({ model: 'claude-sonnet-4-5' });
    t = await startTestApp({
      // Images of at most 1 MB: the body cap is then about 6.6 MB (see apiBodyLimit).
      env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model, FILES_MAX_IMAGE_BYTES: String(1024 * 1024) },
    });
    const admin = await person(t);
    owner = await person(t);
    const connection = await t.request('POST', '/api/admin/connections', {
      token: admin.token,
      body: {
        name: 'Claude',
        kind: 'anthropic',
        baseUrl: claude.baseUrl,
        apiKey: 'sk-ant-1234',
        allowPrivateAddress: true,
      },
    });
    await t.request('PATCH', `/api/admin/connections/${connection.body.id}`, {
      token: admin.token,
      body: { enabledModels: [claude.model, 'claude-opus-4-7'] },
    });
    const bot = await createBot(t, owner.token, { name: 'Agent' });
    const onClaude = await createBot(t, owner.token, {
      name: 'Claude agent',
      config: { model: `${connection.body.id}/${claude.model}` },
    });
    const onOpus = await createBot(t, owner.token, {
      name: 'Opus agent',
      config: { model: `${connection.body.id}/claude-opus-4-7` },
    });
    opusModel = `bot-${onOpus.id}`;
    const researcher = await createBot(t, owner.token, { name: 'Researcher', capabilities: ['web_search'] });
    [botModel, claudeModel, webModel] = [bot, onClaude, researcher].map((b) => `bot-${b.id}`) as [
      string,
      string,
      string,
    ];
    const key = await t.request('POST', '/api/keys', { token: owner.token, body: { name: 'agent', botId: null } });
    client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: key.body.key as string, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await claude?.close();
  });

  /** The second turn of an agent loop: the call the model made, and the tool's result. */
  const secondTurn = (call: { id: string; function: { name: string; arguments: string } }) =>
    [
      QUESTION,
      { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
      { role: 'tool', tool_call_id: call.id, content: '18 °C and sunny' },
    ] satisfies ChatCompletionMessageParam[];

  it('returns a call of the caller’s tool as tool_calls, and answers once its result comes back', async () => {
    fake.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const first = await client.chat.completions.create({
      model: botModel,
      messages: [QUESTION],
      tools: [WEATHER],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    if (call.type !== 'function') throw new Error('a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    const sent = fake.lastRequest().body;
    expect(toolsOffered(fake.lastRequest())).toEqual(['get_weather']);
    expect((sent.tools as { function: { strict?: boolean } }[])[0]!.function.strict).toBe(true);
    expect(sent).toMatchObject({ tool_choice: 'required', parallel_tool_calls: false });

    fake.enqueue('It is 18 °C and sunny in Paris.');
    const second = await client.chat.completions.create({
      model: botModel,
      messages: secondTurn(call),
      tools: [WEATHER],
    });
    expect(second.choices[0]!.message.content).toBe('It is 18 °C and sunny in Paris.');
    expect(second.choices[0]!.finish_reason).toBe('stop');
    const history = fake.lastRequest().body.messages.filter((m) => m.role !== 'system');
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(history[1]).toMatchObject({ tool_calls: [{ id: call.id, function: { name: 'get_weather' } }] });
    expect(toolResultsOf(fake.lastRequest())).toEqual([{ toolCallId: call.id, content: '18 °C and sunny' }]);
  });

  it('streams the calls as delta.tool_calls, which the client assembles', async () => {
    fake.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }] });
    const stream = client.chat.completions.stream({ model: botModel, messages: [QUESTION], tools: [WEATHER] });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    const call = final.choices[0]!.message.tool_calls![0]!;
    if (call.type !== 'function') throw new Error('a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Lyon' });

    // Cut at the output cap: `length`, as OpenAI says.
    fake.enqueue({ text: 'Mild in Lyon.', finishReason: 'length' });
    const answer = await client.chat.completions.create({
      model: botModel,
      messages: secondTurn(call),
      tools: [WEATHER],
      stream: true,
    });
    let [text, finish] = ['', ''];
    for await (const chunk of answer) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect([text, finish]).toEqual(['Mild in Lyon.', 'length']);
    expect(toolResultsOf(fake.lastRequest())).toEqual([{ toolCallId: call.id, content: '18 °C and sunny' }]);
  });

  it('runs the bot’s own tools inside Botty and returns only the caller’s, and refuses a name clash', async () => {
    fake.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'Paris weather' } }] });
    fake.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const completion = await client.chat.completions.create({
      model: webModel,
      messages: [QUESTION],
      tools: [WEATHER],
    });
    expect(completion.choices[0]!.message.tool_calls!.map((c) => c.type === 'function' && c.function.name)).toEqual([
      'get_weather',
    ]);
    // The search ran here: its result went back to the model, with the caller's tool still on offer.
    expect(toolResultsOf(fake.lastRequest())).toHaveLength(1);
    expect(toolsOffered(fake.lastRequest())).toEqual(expect.arrayContaining(['web_search', 'get_weather']));

    const clash = await client.chat.completions
      .create({
        model: webModel,
        messages: [QUESTION],
        tools: [{ type: 'function', function: { name: 'web_search', parameters: { type: 'object' } } }],
      })
      .catch((e: unknown) => e as APIError);
    expect(clash).toBeInstanceOf(OpenAI.BadRequestError);
    expect((clash as APIError).param).toBe('tools');
  });

  it('gives the model a JSON schema the client parses, and passes the sampling parameters and logprobs', async () => {
    // Sent to the model as they came.
    const sampling = {
      stop: ['END'],
      seed: 7,
      top_p: 0.9,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      user: 'user-42',
      logprobs: true,
      top_logprobs: 2,
    };
    fake.enqueue(JSON.stringify(RECIPE));
    const parsed = await client.chat.completions.parse({
      model: botModel,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A recipe' },
            { type: 'text', text: 'quick' },
          ],
        },
      ],
      response_format: zodResponseFormat(Recipe, 'recipe'),
      ...sampling,
    });
    expect(parsed.choices[0]!.message.parsed).toEqual(RECIPE);
    expect(parsed.choices[0]!.logprobs!.content!.map((l) => l.token).join('')).toBe(JSON.stringify(RECIPE));
    expect(parsed.choices[0]!.logprobs!.content![0]!.top_logprobs).toHaveLength(2);
    const sent = fake.lastRequest().body;
    expect(sent).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'recipe', strict: true } },
      ...sampling,
    });
    // Several text parts are read as lines.
    expect(sent.messages.at(-1)).toMatchObject({ role: 'user', content: 'A recipe\nquick' });

    const stream = await client.chat.completions.create({
      model: botModel,
      messages: [{ role: 'user', content: '' }],
      response_format: { type: 'json_object' },
      logprobs: true,
      stream: true,
    });
    const tokens: string[] = [];
    for await (const chunk of stream) tokens.push(...(chunk.choices[0]?.logprobs?.content ?? []).map((l) => l.token));
    expect(tokens.join('')).toBe('Hello from the fake model.');
    expect(fake.lastRequest().body.response_format).toEqual({ type: 'json_object' });
  });

  it('refuses with 400 naming a parameter the bot’s provider cannot honour, and passes the rest to Claude', async () => {
    const before = claude.requests.length;
    for (const [param, extra] of [
      ['seed', { seed: 1 }],
      ['frequency_penalty', { frequency_penalty: 1 }],
      ['logprobs', { logprobs: true }],
      ['response_format', { response_format: { type: 'json_object' } }],
    ] as const) {
      const refused = await client.chat.completions
        .create({ model: claudeModel, messages: [QUESTION], ...extra })
        .catch((e: unknown) => e as APIError);
      expect(refused, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as APIError).param).toBe(param);
      expect((refused as APIError).message).toContain('Anthropic');
    }
    expect(claude.requests.length).toBe(before);
    // Newer Claude models take no sampling settings: the SDK says so as it asks, and the answer is a 400 too.
    const opus = await client.chat.completions
      .create({ model: opusModel, messages: [QUESTION], top_p: 0.5 })
      .catch((e: unknown) => e as APIError);
    expect(opus).toBeInstanceOf(OpenAI.BadRequestError);
    expect((opus as APIError).param).toBe('top_p');

    const strict = await client.chat.completions
      .create({ model: claudeModel, messages: [QUESTION], tools: [WEATHER] })
      .catch((e: unknown) => e as APIError);
    expect((strict as APIError).param).toBe('tools.0.function.strict');

    claude.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Nice' } }] });
    const called = await client.chat.completions.create({
      model: claudeModel,
      messages: [QUESTION],
      tools: [{ type: 'function', function: { ...WEATHER.function, strict: false } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      stop: ['END'],
      top_p: 0.5,
      user: 'user-7',
    });
    expect(called.choices[0]!.finish_reason).toBe('tool_calls');
    expect(claude.lastRequest().body).toMatchObject({
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      top_p: 0.5,
      metadata: { user_id: 'user-7' },
    });

    // A JSON schema reaches Claude as a tool it must call; its input is the answer's text.
    claude.enqueue({ toolCalls: [{ name: 'json', arguments: RECIPE }] });
    const parsed = await client.chat.completions.parse({
      model: claudeModel,
      messages: [{ role: 'user', content: 'A recipe' }],
      response_format: zodResponseFormat(Recipe, 'recipe'),
    });
    expect(parsed.choices[0]!.message.parsed).toEqual(RECIPE);
  });

  it('answers GET /v1/models/{id}, and every other /v1 path or method in OpenAI’s shape', async () => {
    const model = await client.models.retrieve(botModel);
    expect(model).toMatchObject({ id: botModel, object: 'model', name: 'Agent' });
    const missing = await client.models.retrieve('bot-99999999').catch((e: unknown) => e as APIError);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as APIError).code).toBe('model_not_found');

    for (const [method, path] of [
      ['GET', '/v1/embeddingz'],
      ['POST', '/v1/responses'],
      ['GET', '/v1/chat/completions'],
      ['DELETE', '/v1/models'],
      ['GET', '/v1'],
    ]) {
      const res = await fetch(`${t.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({
        error: {
          message: `Invalid URL (${method} ${path})`,
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
    }
    const huge = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: botModel, messages: [{ role: 'user', content: 'x'.repeat(8 * 1024 * 1024) }] }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      error: { code: 'request_too_large', message: expect.stringMatching(/at most \d/) },
    });
  });
});
