import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startFakeLlm,
  systemPromptOf,
  messageText,
  type ChatMessage,
  type FakeLlm,
} from '../../../../tests/support/fake-llm';
import { corruptPdf, png } from '../../../../tests/support/files';
import { uploadSettled } from '../../../../tests/support/files-api';
import { startFakeWeb, type FakeWeb } from '../../../../tests/support/fake-web';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { offlineReplyText } from '../../ai/tasks/chat-reply';

const REPLY = 'Plan: lentil soup on Monday, then a vegetable curry.';
const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const BOT_PROMPT = 'You are the Meal Planner. Only talk about meals.';
/**
 * The app's limit for attached images, set here so that a data URL one byte over it is larger than the rest of
 * the API's 1 MB body limit: the 413 must come from the image check, with its message, not from the body limit.
 */
const IMAGE_LIMIT = 1024 * 1024;

const dataUrl = (bytes: Uint8Array, mediaType = 'image/png') =>
  `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`;
const unexpected = (): never => {
  throw new Error('expected the request to be refused');
};
const imagePart = (url: string) => ({ type: 'image_url' as const, image_url: { url } });
const imageUrlsIn = (message: ChatMessage | undefined) =>
  Array.isArray(message?.content)
    ? (message.content as { type: string; image_url?: { url: string } }[])
        .filter((p) => p.type === 'image_url')
        .map((p) => p.image_url!.url)
    : [];

/** The official client, pointed at Botty as a developer would; no retries, so a 429 is seen as it is. */
const clientFor = (t: TestApp, apiKey: string) => new OpenAI({ baseURL: `${t.url}/v1`, apiKey, maxRetries: 0 });

async function keyFor(t: TestApp, token: string, botId: number | null = null): Promise<string> {
  const res = await t.request('POST', '/api/keys', { token, body: { name: 'test', botId } });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

describe.each(databaseKinds)('the OpenAI-compatible API, on %s', (kind) => {
  let fake: FakeLlm;
  let web: FakeWeb;
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'botty-openai-'));
  const webImage = png(7, 7);
  beforeAll(async () => {
    fake = await startFakeLlm({ reply: REPLY });
    web = await startFakeWeb();
    // Served as JPEG: the bytes, not the header, decide the type.
    web.route('/photo.jpg', (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(webImage));
    web.route('/big.png', (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([png(), new Uint8Array(IMAGE_LIMIT)])),
    );
    t = await startTestApp({
      kind,
      env: {
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: fake.model,
        FILES_DIR: dir,
        FILES_MAX_IMAGE_BYTES: String(IMAGE_LIMIT),
        // The fake web stands for a public site; every other loopback or private address stays refused.
        WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
      },
      fileJobs: { pollMs: 50 },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function developer() {
    const { token } = await signUp(t);
    const planner = await createBot(t, token, { name: 'Meal Planner', config: { customPrompt: BOT_PROMPT } });
    const other = await createBot(t, token, { name: 'Second' });
    return { token, planner, other };
  }

  it('lists the key’s active bots as models, with their names', async () => {
    const { token, planner, other } = await developer();
    const paused = await createBot(t, token, { name: 'Paused', active: false });
    const all = await clientFor(t, await keyFor(t, token)).models.list();
    const listed = all.data.map((m) => ({ id: m.id, object: m.object, name: (m as unknown as { name: string }).name }));
    expect(listed).toEqual(
      expect.arrayContaining([
        { id: `bot-${planner.id}`, object: 'model', name: 'Meal Planner' },
        { id: `bot-${other.id}`, object: 'model', name: 'Second' },
      ]),
    );
    expect(listed.map((m) => m.id)).not.toContain(`bot-${paused.id}`);
    const scoped = await clientFor(t, await keyFor(t, token, other.id)).models.list();
    expect(scoped.data.map((m) => m.id)).toEqual([`bot-${other.id}`]);
  });

  it('answers with the bot’s prompt first, the caller’s system message after it, and stores nothing', async () => {
    const { token, planner } = await developer();
    const client = clientFor(t, await keyFor(t, token));
    const completion = await client.chat.completions.create({
      model: `bot-${planner.id}`,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour !' },
        { role: 'user', content: 'Plan my week' },
      ],
      max_tokens: 64,
      temperature: 0.2,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(`bot-${planner.id}`);
    expect(completion.choices[0]!.message.content).toBe(REPLY);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);

    const sent = fake.lastRequest().body;
    const system = systemPromptOf(fake.lastRequest());
    expect(system.startsWith(BOT_PROMPT)).toBe(true);
    expect(system.indexOf('Answer in French.')).toBeGreaterThan(system.indexOf(BOT_PROMPT));
    expect(sent.messages.filter((m) => m.role !== 'system').map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Bonjour !'],
      ['user', 'Plan my week'],
    ]);
    expect(sent).toMatchObject({ max_tokens: 64, temperature: 0.2 });

    expect(
      await t.db.kysely.selectFrom('conversations').selectAll().where('bot_id', '=', planner.id).execute(),
    ).toEqual([]);
    // Counted off the answer's path.
    await t.app.backgroundSettled();
    const bot = await t.request('GET', `/api/bots/${planner.id}`, { token });
    expect(bot.body.usageCount).toBe(1);
    expect(bot.body.lastUsed).not.toBeNull();
  });

  it('streams chat.completion.chunks whose content is the reply, with usage at the end', async () => {
    const { token, planner } = await developer();
    const stream = await clientFor(t, await keyFor(t, token, planner.id)).chat.completions.create({
      model: `bot-${planner.id}`,
      messages: [{ role: 'user', content: 'Plan my week' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(REPLY);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('answers from the bot’s knowledge, its passage reaching the model', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, {
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    await uploadSettled(t, token, `/api/bots/${bot.id}/files`, 'manual.txt', new TextEncoder().encode(FACT));
    const completion = await clientFor(t, await keyFor(t, token)).chat.completions.create({
      model: `bot-${bot.id}`,
      messages: [{ role: 'user', content: 'How often is the Zephyr widget recalibrated?' }],
    });
    const system = systemPromptOf(fake.lastRequest());
    expect(system).toContain(FACT);
    expect(system).toMatch(/\[1\] \(manual\.txt/);
    // The sources come with the answer, so a client can resolve [1].
    const sources = (completion as unknown as { botty_sources: { n: number; title: string; snippet: string }[] })
      .botty_sources;
    expect(sources).toEqual([expect.objectContaining({ n: 1, kind: 'file', title: 'manual.txt' })]);
    expect(sources[0]!.snippet).toContain('Zephyr');
  });

  it('refuses a bad key (401), an unknown model or one outside the key (404), and a bad request (400)', async () => {
    const { token, planner, other } = await developer();
    const stranger = await signUp(t);
    const theirs = await createBot(t, stranger.token);
    const scoped = clientFor(t, await keyFor(t, token, planner.id));
    const ask = (client: OpenAI, model: string, extra: object = {}) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], ...extra });

    const bad = await ask(clientFor(t, 'botty_not-a-key'), `bot-${planner.id}`).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((bad as APIError).code).toBe('invalid_api_key');

    for (const model of ['gpt-4o', `bot-${other.id}`, `bot-${theirs.id}`, 'bot-99999999']) {
      const missing = await ask(scoped, model).catch((e: unknown) => e);
      expect(missing, model).toBeInstanceOf(OpenAI.NotFoundError);
      expect((missing as APIError).code).toBe('model_not_found');
    }

    const hot = await ask(scoped, `bot-${planner.id}`, { temperature: 3 }).catch((e: unknown) => e);
    expect(hot).toBeInstanceOf(OpenAI.BadRequestError);
    expect((hot as APIError).param).toBe('temperature');
    const noQuestion = await scoped.chat.completions
      .create({ model: `bot-${planner.id}`, messages: [{ role: 'assistant', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(noQuestion).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noQuestion as APIError).error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });

    const raw = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await keyFor(t, token)}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('passes image_url parts (data URLs) to a vision bot’s model as image parts, earlier turns’ too', async () => {
    const { token } = await signUp(t);
    const vision = await createBot(t, token, { capabilities: ['image_understanding'] });
    const client = clientFor(t, await keyFor(t, token, vision.id));
    const chart = png(6, 5);
    const photo = png(3, 3);
    const completion = await client.chat.completions.create({
      model: `bot-${vision.id}`,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Remember this one' }, imagePart(dataUrl(photo))] },
        { role: 'assistant', content: 'Noted.' },
        // The declared type is not trusted: the bytes say PNG, so the model is told PNG.
        {
          role: 'user',
          content: [{ type: 'text', text: 'What does this chart show?' }, imagePart(dataUrl(chart, 'image/jpeg'))],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe(REPLY);
    const sent = fake.lastRequest().body.messages.filter((m) => m.role === 'user');
    expect(sent.map(messageText)).toEqual(['Remember this one', 'What does this chart show?']);
    expect(sent.map(imageUrlsIn)).toEqual([[dataUrl(photo)], [dataUrl(chart)]]);

    // An http(s) URL is downloaded (through the web research's safe fetch) and sent on as the image itself.
    await client.chat.completions.create({
      model: `bot-${vision.id}`,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'And this?' }, imagePart(`${web.url}/photo.jpg`)] }],
    });
    expect(imageUrlsIn(fake.lastRequest().body.messages.at(-1))).toEqual([dataUrl(webImage)]);

    // An image alone is a question too, and the stream carries it the same way.
    const stream = await client.chat.completions.create({
      model: `bot-${vision.id}`,
      messages: [{ role: 'user', content: [imagePart(dataUrl(chart))] }],
      stream: true,
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(REPLY);
    expect(imageUrlsIn(fake.lastRequest().body.messages.at(-1))).toEqual([dataUrl(chart)]);
    // Stateless: neither a conversation nor a file is kept.
    expect(await t.db.kysely.selectFrom('conversations').selectAll().where('bot_id', '=', vision.id).execute()).toEqual(
      [],
    );
    expect(await t.db.kysely.selectFrom('files').selectAll().where('bot_id', '=', vision.id).execute()).toEqual([]);
  });

  it('refuses images a bot cannot see, of the wrong type or size, by URL, and other part kinds, in OpenAI’s shape', async () => {
    const { token } = await signUp(t);
    const vision = await createBot(t, token, { capabilities: ['image_understanding'] });
    const plain = await createBot(t, token, { name: 'Plain', capabilities: ['memory_context'] });
    const client = clientFor(t, await keyFor(t, token));
    const before = fake.requests.length;
    const ask = (botId: number, part: object) =>
      client.chat.completions
        .create({
          model: `bot-${botId}`,
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, part] as never }],
        })
        .then(unexpected, (e: unknown) => e as APIError);
    const param = 'messages.0.content.1';

    const blind = await ask(plain.id, imagePart(dataUrl(png())));
    expect(blind).toBeInstanceOf(OpenAI.BadRequestError);
    expect(blind.error).toMatchObject({ type: 'invalid_request_error', code: 'image_understanding_off', param });
    expect(blind.message).toContain('image_understanding');

    const pdf = await ask(vision.id, imagePart(dataUrl(corruptPdf())));
    expect(pdf.status).toBe(415);
    expect(pdf.error).toMatchObject({ code: 'invalid_image_format', param: `${param}.image_url.url` });
    expect(pdf.message).toContain('PNG, JPEG, GIF, WEBP');
    const text = await ask(vision.id, imagePart(dataUrl(new TextEncoder().encode('not an image'))));
    expect(text.status).toBe(415);

    const large = await ask(vision.id, imagePart(dataUrl(Buffer.concat([png(), new Uint8Array(IMAGE_LIMIT)]))));
    expect(large.status).toBe(413);
    expect(large.error).toMatchObject({ code: 'image_too_large', param: `${param}.image_url.url` });
    expect((large.error as { message: string }).message).toBe('Images can be at most 1 MB.');

    const fromWeb = await ask(vision.id, imagePart(`${web.url}/big.png`));
    expect(fromWeb.status).toBe(413);
    expect(fromWeb.error).toMatchObject({ code: 'image_too_large' });
    // Served as image/png, but 64 zero bytes are no image.
    expect((await ask(vision.id, imagePart(`${web.url}/image`))).status).toBe(415);
    const connections = web.connections;
    for (const url of ['http://localhost/photo.jpg', 'http://10.0.0.7/photo.jpg', 'http://[::1]/a.png']) {
      const privateUrl = await ask(vision.id, imagePart(url));
      expect(privateUrl, url).toBeInstanceOf(OpenAI.BadRequestError);
      expect(privateUrl.error).toMatchObject({ code: 'invalid_image_url', param: `${param}.image_url.url` });
      expect(privateUrl.message).toContain('The image URL cannot be fetched: This address is not allowed');
    }
    expect(web.connections).toBe(connections);
    const missing = await ask(vision.id, imagePart(`${web.url}/missing`));
    expect(missing.message).toContain('The image could not be downloaded: The page answered 404');
    const notBase64 = await ask(vision.id, imagePart('data:image/png,%89PNG'));
    expect(notBase64.error).toMatchObject({ code: 'invalid_image_url' });

    const audio = await ask(vision.id, { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } });
    expect(audio).toBeInstanceOf(OpenAI.BadRequestError);
    expect(audio.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(audio.message).toContain("not 'input_audio'");

    const many = await client.chat.completions
      .create({
        model: `bot-${vision.id}`,
        messages: [{ role: 'user', content: Array.from({ length: 5 }, () => imagePart(dataUrl(png()))) }],
      })
      .then(unexpected, (e: unknown) => e as APIError);
    expect(many).toBeInstanceOf(OpenAI.BadRequestError);
    expect(many.message).toContain('at most 4 images');
    expect(fake.requests.length).toBe(before);
  });

  it('reports a failing model in OpenAI’s shape', async () => {
    const { token, planner } = await developer();
    fake.enqueue({ status: 500 });
    const failed = await clientFor(t, await keyFor(t, token))
      .chat.completions.create({ model: `bot-${planner.id}`, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as APIError).status).toBe(502);
    expect((failed as APIError).message).toContain('The language model failed to answer (error 500)');
  });
});

describe('the OpenAI-compatible API without a model, and under a rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_API_KEY_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('answers honestly offline, in the same shape, then 429 with Retry-After per key', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { name: 'Scout' });
    const client = clientFor(t, await keyFor(t, token));
    const completion = await client.chat.completions.create({
      model: `bot-${bot.id}`,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe(offlineReplyText('Scout'));
    expect(completion.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

    await client.models.list();
    await client.models.list();
    const limited = await client.models.list().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((limited as APIError).headers?.get('retry-after'))).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await clientFor(t, await keyFor(t, token)).models.list()).data).toHaveLength(1);
  });
});
