import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { tool as langChainTool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject, generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { person } from '../../../../tests/support/admin-api';
import { createBot } from '../../../../tests/support/factories';
import {
  startFakeLlm,
  toolResultsOf,
  toolsOffered,
  type FakeLlm,
  type ReceivedRequest,
} from '../../../../tests/support/fake-llm';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

const Recipe = z.object({ title: z.string(), minutes: z.number() });
const RECIPE = { title: 'Lentil soup', minutes: 40 };

/**
 * The model as an OpenAI server would act for these clients: JSON when a response format is asked for, a call
 * of the first tool offered until a tool result comes back, then words.
 */
function agentModel(request: ReceivedRequest) {
  if (request.body.response_format) return JSON.stringify(RECIPE);
  const [first] = toolsOffered(request);
  if (first && !toolResultsOf(request).length) {
    return { toolCalls: [{ name: first, arguments: first === 'get_weather' ? { city: 'Paris' } : RECIPE }] };
  }
  return 'It is sunny in Paris.';
}

/** The Vercel AI SDK and LangChain, pointed at /v1 as their users point them at OpenAI. */
describe('AI SDK and LangChain clients against /v1', () => {
  let fake: FakeLlm;
  let t: TestApp;
  let apiKey = '';
  let model = '';
  const baseURL = () => `${t.url}/v1`;

  beforeAll(async () => {
    fake = await startFakeLlm({ reply: agentModel });
    t = await startTestApp({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
    const owner = await person(t);
    const bot = await createBot(t, owner.token, { name: 'Agent' });
    model = `bot-${bot.id}`;
    const key = await t.request('POST', '/api/keys', { token: owner.token, body: { name: 'sdk', botId: bot.id } });
    apiKey = key.body.key as string;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('AI SDK: generateObject parses the answer, and a tool runs between two turns', async () => {
    const botty = createOpenAICompatible({
      name: 'botty',
      baseURL: baseURL(),
      apiKey,
      supportsStructuredOutputs: true,
    });
    const { object } = await generateObject({ model: botty.chatModel(model), schema: Recipe, prompt: 'A recipe' });
    expect(object).toEqual(RECIPE);
    expect(fake.lastRequest().body.response_format).toMatchObject({ type: 'json_schema' });

    const cities: string[] = [];
    const { text, steps } = await generateText({
      model: botty.chatModel(model),
      prompt: 'What is the weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            cities.push(city);
            return `Sunny in ${city}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(cities).toEqual(['Paris']);
    expect(steps[0]!.finishReason).toBe('tool-calls');
    expect(text).toBe('It is sunny in Paris.');
    expect(toolResultsOf(fake.lastRequest())[0]!.content).toContain('Sunny in Paris');
  });

  it('LangChain: bindTools returns the tool call, and withStructuredOutput the object', async () => {
    const chat = new ChatOpenAI({ model, apiKey, configuration: { baseURL: baseURL() }, maxRetries: 0 });
    const weather = langChainTool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
      name: 'get_weather',
      description: 'The weather in a city',
      schema: z.object({ city: z.string() }),
    });
    const called = await chat.bindTools([weather]).invoke('What is the weather in Paris?');
    expect(called.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);

    const recipe = await chat.withStructuredOutput(Recipe, { name: 'recipe' }).invoke('A recipe');
    expect(recipe).toEqual(RECIPE);
  });
});
