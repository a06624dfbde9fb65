import { randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreateBotRequest } from '@shared/contracts/bots';
import type { ChatStreamEvent, Message } from '@shared/contracts/chat';
import { startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, deltasOf, openChatStream, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { uploadFile } from '../../../../tests/support/files-api';
import {
  anthropicSystemOf,
  anthropicToolResultsOf,
  startFakeAnthropic,
  type AnthropicPlan,
  type FakeAnthropic,
} from '../../../../tests/support/fake-anthropic';
import {
  startFakeLlm,
  systemPromptOf,
  toolResultsOf,
  toolsOffered,
  type FakeLlm,
  type ReplyPlan,
} from '../../../../tests/support/fake-llm';
import { startFakeSearch, type FakeSearch } from '../../../../tests/support/fake-search';
import { startFakeWeb, type FakeWeb } from '../../../../tests/support/fake-web';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import type { LlmProvider } from '../../config';
import { CHAT_MAX_OUTPUT_TOKENS } from '../../ai/model-capabilities';
import { CHAT_ERRORS } from '../../ai/tasks/chat-reply';

type Kind = Exclude<LlmProvider, 'offline'>;

/** One provider kind behind its protocol-faithful fake, seen the same way by the tests below. */
interface Provider {
  kind: Kind;
  env: Record<string, string>;
  requests: () => { body: Record<string, unknown>; aborted: boolean }[];
  enqueue: (...plans: unknown[]) => void;
  reset: () => void;
  toolsOf: (body: Record<string, unknown>) => string[];
  toolResultCount: (index: number) => number;
  systemOf: (index: number) => string;
  /** A plan answering HTTP `status` with this Retry-After. */
  httpError: (status: number, retryAfter: string) => unknown;
  /** An overload after the stream began, before any text. */
  overloadInStream: unknown;
  close: () => Promise<void>;
}

const API_KEY = 'sk-test-key-not-real';
const MIB = 1024 * 1024;

function openAiProvider(kind: 'openai-compatible' | 'openai', fake: FakeLlm, model: string): Provider {
  return {
    kind,
    env: {
      ...(kind === 'openai' ? { LLM_PROVIDER: 'openai', LLM_API_KEY: API_KEY } : {}),
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: model,
    },
    requests: () => fake.requests,
    enqueue: (...plans) => fake.enqueue(...(plans as ReplyPlan[])),
    reset: () => {
      fake.setReply('Hello from the fake model.');
      fake.requests.length = 0;
    },
    toolsOf: (body) => toolsOffered({ body: body as never, headers: {}, aborted: false }),
    toolResultCount: (i) => toolResultsOf(fake.requests[i]!).length,
    systemOf: (i) => systemPromptOf(fake.requests[i]!),
    httpError: (status, retryAfter) => ({ status, message: 'slow down', headers: { 'retry-after': retryAfter } }),
    // OpenAI reports overload as an HTTP 503 before the stream; retry-after-ms keeps the test quick.
    overloadInStream: { status: 503, message: 'overloaded', headers: { 'retry-after-ms': '20' } },
    close: () => fake.close(),
  };
}

function anthropicProvider(fake: FakeAnthropic, model: string): Provider {
  return {
    kind: 'anthropic',
    env: { LLM_PROVIDER: 'anthropic', LLM_API_KEY: API_KEY, LLM_BASE_URL: fake.baseUrl, LLM_MODEL: model },
    requests: () => fake.requests as never,
    enqueue: (...plans) => fake.enqueue(...(plans as AnthropicPlan[])),
    reset: () => {
      fake.setReply('Hello from the fake Claude.');
      fake.requests.length = 0;
    },
    toolsOf: (body) => ((body.tools ?? []) as { name: string }[]).map((t) => t.name),
    toolResultCount: (i) => anthropicToolResultsOf(fake.requests[i]!).length,
    systemOf: (i) => anthropicSystemOf(fake.requests[i]!),
    httpError: (status, retryAfter) => ({
      status,
      error: { type: status === 429 ? 'rate_limit_error' : 'overloaded_error', message: 'slow down' },
      headers: { 'retry-after': retryAfter },
    }),
    overloadInStream: {
      text: '',
      errorAfterChunks: { at: 0, error: { type: 'overloaded_error', message: 'Overloaded' } },
    },
    close: () => fake.close(),
  };
}

const providers: { kind: Kind; start: () => Promise<Provider> }[] = [
  {
    kind: 'openai-compatible',
    start: async () => openAiProvider('openai-compatible', await startFakeLlm(), 'fake-model'),
  },
  {
    kind: 'openai',
    start: async () => openAiProvider('openai', await startFakeLlm({ model: 'gpt-4o-mini' }), 'gpt-4o-mini'),
  },
  { kind: 'anthropic', start: async () => anthropicProvider(await startFakeAnthropic(), 'claude-sonnet-4-5') },
];

const WEB_BOT: Partial<CreateBotRequest> = {
  capabilities: ['web_search'],
  config: { webBrowsing: true, citationGeneration: true },
};
const VISION_BOT: Partial<CreateBotRequest> = { capabilities: ['image_understanding'] };

/** A PNG of noise, so it does not compress: about `bytes` long. */
function noisePng(bytes: number): Uint8Array {
  const side = Math.ceil(Math.sqrt(bytes / 4));
  const image = new PNG({ width: side, height: side });
  randomFillSync(image.data);
  return PNG.sync.write(image);
}

const saved = (events: ChatStreamEvent[]) => {
  const done = events.find((e) => e.event === 'done');
  return done?.event === 'done' ? (done.data as Message | null) : null;
};

describe.each(databaseKinds)('every provider answers correctly, on %s', (dbKind) => {
  describe.each(providers)('$kind', ({ start }) => {
    let provider: Provider;
    let site: FakeWeb;
    let searxng: FakeSearch;
    let t: TestApp;
    let token: string;

    beforeAll(async () => {
      provider = await start();
      site = await startFakeWeb();
      searxng = await startFakeSearch();
      t = await startCheckedApp({
        kind: dbKind,
        env: {
          ...provider.env,
          SEARCH_PROVIDER: 'searxng',
          SEARCH_URL: searxng.url,
          // UNSAFE anywhere but tests: lets the page fetch reach the fake sites on loopback.
          WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
        },
      });
      token = (await signUp(t)).token;
    });
    afterAll(async () => {
      await t.close();
      await provider.close();
      await site.close();
      await searxng.close();
    });
    beforeEach(() => {
      provider.reset();
      searxng.results = [
        { title: 'Vitamin D', url: `${site.url}/page`, snippet: 'A fact sheet about vitamin D' },
        { title: 'Iron', url: `${site.url}/other`, snippet: 'Iron carries oxygen' },
      ];
    });

    async function conversation(bot: Partial<CreateBotRequest> = {}) {
      const created = await createBot(t, token, bot);
      const c = await createConversation(t, token, created.id);
      const path = (action: 'stream' | 'stop') => `/api/conversations/${c.id}/${action}`;
      return {
        send: (content: string) => streamChat(t, path('stream'), { token, body: { content } }),
        open: (content: string) => openChatStream(t, path('stream'), { token, body: { content } }),
        stop: () => t.request('POST', path('stop'), { token }),
      };
    }

    const usageOf = (id: number) =>
      t.db.kysely
        .selectFrom('messages')
        .select(['input_tokens', 'output_tokens'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('answers after four rounds of web research, with a modest output cap', async () => {
      const c = await conversation(WEB_BOT);
      provider.enqueue(
        { toolCalls: [{ name: 'web_search', arguments: { query: 'vitamin d' } }] },
        { toolCalls: [{ name: 'open_page', arguments: { url: `${site.url}/page` } }] },
        { toolCalls: [{ name: 'web_search', arguments: { query: 'iron' } }] },
        { toolCalls: [{ name: 'open_page', arguments: { url: `${site.url}/other` } }] },
        'Adults need vitamin D [1] and iron [2].',
      );
      const events = await c.send('What do adults need?');

      expect(deltasOf(events).join('')).toBe('Adults need vitamin D [1] and iron [2].');
      expect(saved(events)).toMatchObject({ status: 'complete' });
      const requests = provider.requests();
      expect(requests).toHaveLength(5);
      expect(provider.toolResultCount(4)).toBe(4);
      const last = requests[4]!.body;
      if (provider.kind === 'anthropic') {
        // Its history holds tool_use blocks, so Anthropic needs the tools defined; the model is told to answer.
        expect(provider.toolsOf(last)).toEqual(expect.arrayContaining(['web_search', 'open_page']));
        expect(provider.systemOf(4)).toMatch(/Answer now from what you have found, without calling tools/);
        expect(last.max_tokens).toBe(CHAT_MAX_OUTPUT_TOKENS);
      } else {
        expect(provider.toolsOf(last)).toEqual([]);
        expect(last.max_tokens).toBe(provider.kind === 'openai' ? CHAT_MAX_OUTPUT_TOKENS : undefined);
      }
    });

    it('asks a busy model again before any text, honouring retry-after, and answers', async () => {
      const c = await conversation();
      provider.enqueue(
        provider.overloadInStream,
        provider.httpError(provider.kind === 'anthropic' ? 529 : 503, '0'),
        'Back again.',
      );
      const events = await c.send('Hello?');
      expect(deltasOf(events).join('')).toBe('Back again.');
      expect(saved(events)).toMatchObject({ status: 'complete' });
      expect(provider.requests()).toHaveLength(3);
    });

    it('says the model is busy, without retrying, when the provider asks for a long pause', async () => {
      const c = await conversation();
      provider.enqueue(provider.httpError(429, '60'));
      const events = await c.send('Hello?');
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { message: CHAT_ERRORS.busy } });
      expect(provider.requests()).toHaveLength(1);
    });

    it('keeps the usage the stream reported on a stopped reply', async () => {
      const c = await conversation();
      provider.enqueue({ text: 'one two three four five six', hangAfterChunks: 2 });
      const stream = await c.open('Count, please');
      await stream.waitFor((e) => e.event === 'delta');
      expect(await c.stop()).toMatchObject({ status: 200, body: { stopped: true } });
      const reply = saved(await stream.finished);
      expect(reply).toMatchObject({ status: 'stopped' });
      const usage = await usageOf(reply!.id);
      if (provider.kind === 'anthropic') {
        // message_start reports the input tokens before any text.
        expect(Number(usage.input_tokens)).toBeGreaterThan(0);
      } else {
        // OpenAI reports usage only in the stream's last event: nothing to keep, so it is estimated later.
        expect(usage).toEqual({ input_tokens: null, output_tokens: null });
      }
    });

    it('takes a 6 MB image only where the provider does, and says why up front where it does not', async () => {
      const bot = await createBot(t, token, VISION_BOT);
      const keyRes = await t.request('POST', '/api/keys', { token, body: { name: 'test', botId: bot.id } });
      const image = noisePng(6 * MIB);
      expect(image.byteLength).toBeGreaterThan(6 * MIB);
      const res = await fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyRes.body.key as string}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: `bot-${bot.id}`,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is this?' },
                {
                  type: 'image_url',
                  image_url: { url: `data:image/png;base64,${Buffer.from(image).toString('base64')}` },
                },
              ],
            },
          ],
        }),
      });
      const body = (await res.json()) as { error?: { message: string; code: string } };
      if (provider.kind === 'anthropic') {
        expect(res.status).toBe(413);
        expect(body.error).toMatchObject({ code: 'image_too_large', message: CHAT_ERRORS.imageTooLarge(5 * MIB) });
        expect(body.error!.message).toMatch(/at most 5 MB once encoded/);
        expect(provider.requests()).toHaveLength(0);
      } else {
        expect(res.status).toBe(200);
        expect(provider.requests()).toHaveLength(1);
      }
    });

    it('passes an upstream 429 on /v1 through as a 429, and an overload as a 503, with Retry-After, in OpenAI’s shape', async () => {
      const bot = await createBot(t, token);
      const keyRes = await t.request('POST', '/api/keys', { token, body: { name: 'test', botId: bot.id } });
      const complete = () =>
        fetch(`${t.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keyRes.body.key as string}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: `bot-${bot.id}`, messages: [{ role: 'user', content: 'Hi' }] }),
        });
      provider.enqueue(provider.httpError(429, '30'));
      const limited = await complete();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('30');
      expect(await limited.json()).toEqual({
        error: { message: CHAT_ERRORS.busy, type: 'requests', param: null, code: 'rate_limit_exceeded' },
      });

      // An overloaded provider asking for a long pause: 503, as OpenAI answers when it is overloaded.
      provider.enqueue(provider.httpError(provider.kind === 'anthropic' ? 529 : 503, '45'));
      const overloaded = await complete();
      expect(overloaded.status).toBe(503);
      expect(overloaded.headers.get('retry-after')).toBe('45');
      expect(await overloaded.json()).toMatchObject({ error: { message: CHAT_ERRORS.overloaded, code: 'overloaded' } });
    });
  });
});

describe('Anthropic, beyond the reply matrix', () => {
  let fake: FakeAnthropic;
  let t: TestApp;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'botty-anthropic-'));
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    t = await startCheckedApp({
      fileJobs: { pollMs: 25 },
      env: {
        FILES_DIR: dir,
        LLM_PROVIDER: 'anthropic',
        LLM_API_KEY: API_KEY,
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: 'claude-sonnet-4-5',
      },
    });
    token = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an attached 6 MB image in the chat with the size Anthropic takes, without asking it', async () => {
    const bot = await createBot(t, token, VISION_BOT);
    const c = await createConversation(t, token, bot.id);
    const image = await uploadFile(t, token, `/api/conversations/${c.id}/files`, 'photo.png', noisePng(6 * MIB));
    expect(image.status).toBe(201);
    fake.requests.length = 0;
    const events = await streamChat(t, `/api/conversations/${c.id}/stream`, {
      token,
      body: { content: 'What is this?', fileIds: [image.body.id] },
    });
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { message: CHAT_ERRORS.imageTooLarge(5 * MIB) } });
    expect(fake.requests).toHaveLength(0);
  });

  it('keeps a failed reply’s text and usage when the overload comes after text was shown, and does not repeat it', async () => {
    const bot = await createBot(t, token);
    const c = await createConversation(t, token, bot.id);
    fake.enqueue({
      text: 'The first part of the answer',
      errorAfterChunks: { at: 3, error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const events = await streamChat(t, `/api/conversations/${c.id}/stream`, { token, body: { content: 'Go' } });
    expect(deltasOf(events).join('')).toBe('The first part ');
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { message: CHAT_ERRORS.overloaded } });
    expect(fake.requests).toHaveLength(1);
    const row = await t.db.kysely
      .selectFrom('messages')
      .select(['status', 'input_tokens'])
      .where('conversation_id', '=', c.id)
      .where('role', '=', 'assistant')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(Number(row.input_tokens)).toBeGreaterThan(0);
  });
});
