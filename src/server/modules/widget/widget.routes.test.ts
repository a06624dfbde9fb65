import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER, WIDGET_MESSAGES } from '@shared/chat/widget-protocol';
import { readWidgetEvents, streamChat, createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { systemPromptOf } from '../../../../tests/support/fake-llm';
import { uploadSettled } from '../../../../tests/support/files-api';
import { signUp, startTestAppWithModel } from '../../../../tests/support/test-app';

const SITE = 'http://127.0.0.1:4321';
const ANSWER = 'Our shop opens at nine every weekday.';
type AppWithModel = Awaited<ReturnType<typeof startTestAppWithModel>>;

const text = (s: string) => new TextEncoder().encode(s);
const visitor = (n: number) => `visitor-key-${String(n).padStart(20, '0')}`;

describe.each(databaseKinds)('embed widget, on %s', (kind) => {
  let t: AppWithModel;
  beforeAll(async () => {
    t = await startTestAppWithModel({ kind, model: { reply: ANSWER } });
  });
  afterAll(async () => t.close());

  /** A bot of a fresh owner, shared and embeddable on SITE unless told otherwise. */
  async function embeddedBot(sharing: object = {}) {
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, {
      name: 'Shop helper',
      config: { greeting: 'Welcome to the <shop>!' },
    });
    const res = await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'link', embedOrigins: [SITE], ...sharing },
    });
    expect(res.status).toBe(200);
    return { owner, bot };
  }

  const headers = (key: string, origin = SITE) => ({ [EMBED_ORIGIN_HEADER]: origin, [VISITOR_KEY_HEADER]: key });

  const ask = (botId: number, key: string, content: string, origin = SITE) =>
    fetch(`${t.url}/api/widget/${botId}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers(key, origin) },
      body: JSON.stringify({ content }),
    });

  const messagesOf = (botId: number, key: string, origin = SITE) =>
    t.request('GET', `/api/widget/${botId}/messages`, { headers: headers(key, origin) });

  const page = (botId: number, origin: string, referer?: string) =>
    fetch(`${t.url}/embed/${botId}?origin=${encodeURIComponent(origin)}`, {
      headers: referer ? { referer } : {},
    });

  it('serves the widget page framed only by the listed sites, and answers a listed site’s visitor with the bot', async () => {
    const { bot } = await embeddedBot({ embedOrigins: [SITE, 'https://shop.example'] });
    const res = await page(bot.id, SITE, `${SITE}/products`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(`frame-ancestors ${SITE} https://shop.example`);
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    expect(html).toContain('data-name="Shop helper"');
    // The owner's greeting, as the app's chat shows it.
    expect(html).toContain('data-greeting="Welcome to the &lt;shop&gt;!"');

    const reply = await ask(bot.id, visitor(1), 'When do you open?');
    expect(reply.status).toBe(200);
    const events = await readWidgetEvents(reply);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { content: ANSWER } });
    const history = await messagesOf(bot.id, visitor(1));
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'When do you open?'],
      ['assistant', ANSWER],
    ]);
    // What the model was asked carries the bot's own prompt.
    expect(JSON.stringify(t.fake.requests.at(-1)?.body.messages[0])).toContain('Shop helper');
  });

  it('refuses an unlisted site, a private bot and a page whose Referer contradicts its origin', async () => {
    const { owner, bot } = await embeddedBot();
    const unlisted = await page(bot.id, 'http://localhost:9999');
    expect(unlisted.status).toBe(404);
    expect(unlisted.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(await unlisted.text()).toContain(WIDGET_MESSAGES.notAvailable);
    expect((await page(bot.id, SITE, 'http://evil.example/')).status).toBe(404);
    const refused = await ask(bot.id, visitor(2), 'Hello?', 'http://localhost:9999');
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ message: WIDGET_MESSAGES.notAvailable });

    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: owner.token, body: { visibility: 'private' } });
    expect((await page(bot.id, SITE)).status).toBe(404);
    expect((await ask(bot.id, visitor(2), 'Hello?')).status).toBe(404);
    expect((await messagesOf(bot.id, visitor(2))).status).toBe(404);
    expect((await page(999_999, SITE)).status).toBe(404);
  });

  it('needs a well-formed visitor key', async () => {
    const { bot } = await embeddedBot();
    const res = await messagesOf(bot.id, 'short');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(WIDGET_MESSAGES.visitorKey);
  });

  it('keeps each visitor to their own conversation', async () => {
    const { bot } = await embeddedBot();
    await readWidgetEvents(await ask(bot.id, visitor(3), 'My order number is 5521.'));
    const other = await messagesOf(bot.id, visitor(4));
    expect(other.body.messages).toEqual([]);
    await readWidgetEvents(await ask(bot.id, visitor(4), 'Do you ship abroad?'));
    const mine = await messagesOf(bot.id, visitor(3));
    expect(mine.body.messages.map((m: { content: string }) => m.content)).toEqual(['My order number is 5521.', ANSWER]);
    const theirs = await messagesOf(bot.id, visitor(4));
    expect(JSON.stringify(theirs.body)).not.toContain('5521');
  });

  it('stops at the bot’s daily cap with a clear 429', async () => {
    const { bot } = await embeddedBot({ embedDailyCap: 2 });
    expect((await ask(bot.id, visitor(5), 'One')).status).toBe(200);
    expect((await ask(bot.id, visitor(6), 'Two')).status).toBe(200);
    const capped = await ask(bot.id, visitor(7), 'Three');
    expect(capped.status).toBe(429);
    const body = await capped.json();
    expect(body.message).toBe(WIDGET_MESSAGES.capReached);
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(capped.headers.get('retry-after')).toBe(String(body.retryAfter));
  });

  it('lists widget conversations to the owner only, and keeps them out of the owner’s History and search', async () => {
    const { owner, bot } = await embeddedBot();
    const mine = await createConversation(t, owner.token, bot.id);
    await streamChat(t, `/api/conversations/${mine.id}/stream`, {
      token: owner.token,
      body: { content: 'Owner here' },
    });
    await readWidgetEvents(await ask(bot.id, visitor(8), 'Is the zeppelin lamp in stock?'));

    const list = await t.request('GET', `/api/bots/${bot.id}/widget-conversations`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ questionsToday: 1, dailyCap: 200 });
    expect(list.body.conversations).toHaveLength(1);
    const [widgetConversation] = list.body.conversations;
    expect(widgetConversation.messageCount).toBe(2);
    const messages = await t.request(
      'GET',
      `/api/bots/${bot.id}/widget-conversations/${widgetConversation.id}/messages`,
      { token: owner.token },
    );
    expect(messages.body.map((m: { content: string }) => m.content)).toEqual([
      'Is the zeppelin lamp in stock?',
      ANSWER,
    ]);
    // The owner's own conversation is not a widget one.
    expect(
      (await t.request('GET', `/api/bots/${bot.id}/widget-conversations/${mine.id}/messages`, { token: owner.token }))
        .status,
    ).toBe(404);

    const history = await t.request('GET', '/api/conversations', { token: owner.token });
    expect(history.body.items.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    const ofBot = await t.request('GET', `/api/bots/${bot.id}/conversations`, { token: owner.token });
    expect(ofBot.body.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    const search = await t.request('GET', '/api/conversations/search?q=zeppelin', { token: owner.token });
    expect(search.body.results).toEqual([]);

    const stranger = await signUp(t);
    expect((await t.request('GET', `/api/bots/${bot.id}/widget-conversations`, { token: stranger.token })).status).toBe(
      404,
    );
    expect(
      (
        await t.request('GET', `/api/bots/${bot.id}/widget-conversations/${widgetConversation.id}/messages`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404);
  });
});

describe('embed widget rate limit per address', () => {
  let t: AppWithModel;
  beforeAll(async () => {
    t = await startTestAppWithModel({ env: { RATE_LIMIT_WIDGET_PER_MINUTE: '3' }, model: { reply: ANSWER } });
  });
  afterAll(async () => t.close());

  it('answers 429 with Retry-After once an address made too many widget calls', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token);
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'public', embedOrigins: [SITE] },
    });
    const call = () =>
      t.request('GET', `/api/widget/${bot.id}/messages`, {
        headers: { [EMBED_ORIGIN_HEADER]: SITE, [VISITOR_KEY_HEADER]: visitor(9) },
      });
    for (let i = 0; i < 3; i += 1) expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe.each(databaseKinds)('embed widget answering from knowledge, on %s', (kind) => {
  const FACT = 'The Zephyr lamp takes a 7 W bulb with an E14 screw base.';
  const dir = mkdtempSync(join(tmpdir(), 'botty-widget-sources-'));
  let t: AppWithModel;
  beforeAll(async () => {
    t = await startTestAppWithModel({
      kind,
      model: { reply: (r) => (systemPromptOf(r).includes('[1]') ? 'A 7 W E14 bulb [1].' : 'I do not know.') },
      env: { FILES_DIR: dir },
      fileJobs: { pollMs: 50 },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the sources a reply cites, without the ids of the owner’s files, live and in the history', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, {
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    const file = await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, 'lamp-manual.txt', text(FACT));
    expect(file.status).toBe('ready');
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'link', embedOrigins: [SITE] },
    });
    const key = visitor(7);
    const widgetHeaders = { [EMBED_ORIGIN_HEADER]: SITE, [VISITOR_KEY_HEADER]: key };
    const res = await fetch(`${t.url}/api/widget/${bot.id}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...widgetHeaders },
      body: JSON.stringify({ content: 'Which bulb does the Zephyr lamp take?' }),
    });
    const events = await readWidgetEvents(res);
    const source = { n: 1, kind: 'file', title: 'lamp-manual.txt' };
    expect(events.find((e) => e.event === 'sources')?.data).toMatchObject({ sources: [source] });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { content: 'A 7 W E14 bulb [1].', sources: [source] } });
    // Nothing of the owner's account: no file ids, no passages, no attachments or versions.
    expect(JSON.stringify(events)).not.toMatch(/"(fileId|snippet|attachments|versions)"/);

    const history = await t.request('GET', `/api/widget/${bot.id}/messages`, { headers: widgetHeaders });
    expect(history.body.messages.at(-1)).toMatchObject({ role: 'assistant', sources: [source] });
    expect(JSON.stringify(history.body)).not.toMatch(/"(fileId|snippet)"/);
  });
});
