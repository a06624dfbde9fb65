import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreateBotRequest } from '@shared/contracts/bots';
import type { ChatStreamEvent, Message, ReplyStep } from '@shared/contracts/chat';
import { startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, deltasOf, messagesOf, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startFakeLlm,
  systemPromptOf,
  toolResultsOf,
  toolsOffered,
  type FakeLlm,
} from '../../../../tests/support/fake-llm';
import { startFakeSearch, type FakeSearch } from '../../../../tests/support/fake-search';
import { startFakeWeb, type FakeWeb } from '../../../../tests/support/fake-web';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { SEARCH_NOT_CONFIGURED } from './web-tools';

const WEB_BOT: Partial<CreateBotRequest> = {
  capabilities: ['web_search'],
  config: { webBrowsing: true, citationGeneration: true },
};

const stepsOf = (events: ChatStreamEvent[]) => events.flatMap((e) => (e.event === 'step' ? [e.data] : []));
const lastSources = (events: ChatStreamEvent[]) =>
  events.flatMap((e) => (e.event === 'sources' ? [e.data.sources] : [])).at(-1) ?? [];
const savedReply = (events: ChatStreamEvent[]) => {
  const done = events.find((e) => e.event === 'done');
  if (done?.event !== 'done' || !done.data) throw new Error(`no saved reply in ${JSON.stringify(events)}`);
  return done.data;
};
const stepFor = (steps: ReplyStep[], url: string) => steps.find((s) => s.url === url);

describe.each(databaseKinds)('web research in the chat on %s', (kind) => {
  let fake: FakeLlm;
  let site: FakeWeb;
  let searxng: FakeSearch;
  let t: TestApp;
  let noSearch: TestApp;
  let token: string;

  const defaultResults = () => [
    { title: 'Vitamin D', url: `${site.url}/page`, snippet: 'A fact sheet about vitamin D' },
    { title: 'Iron', url: `${site.url}/other`, snippet: 'Iron carries oxygen' },
  ];

  beforeAll(async () => {
    fake = await startFakeLlm();
    site = await startFakeWeb();
    searxng = await startFakeSearch();
    const env = {
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'fake-model',
      // UNSAFE anywhere but tests: lets the page fetch reach the fake sites on loopback.
      WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
    };
    t = await startCheckedApp({ kind, env: { ...env, SEARCH_PROVIDER: 'searxng', SEARCH_URL: searxng.url } });
    noSearch = await startCheckedApp({ kind, env: { ...env, SEARCH_PROVIDER: 'none' } });
    token = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t.close();
    await noSearch.close();
    await fake.close();
    await site.close();
    await searxng.close();
  });
  beforeEach(() => {
    fake.setReply('Hello from the fake model.');
    fake.requests.length = 0;
    searxng.requests.length = 0;
    searxng.mode = 'results';
    searxng.results = defaultResults();
  });

  async function chat(app: TestApp, bot: Partial<CreateBotRequest> = WEB_BOT) {
    const owner = app === t ? token : (await signUp(app)).token;
    const created = await createBot(app, owner, bot);
    const conversation = await createConversation(app, owner, created.id);
    return {
      send: (content: string) =>
        streamChat(app, `/api/conversations/${conversation.id}/stream`, { token: owner, body: { content } }),
      messages: () => messagesOf(app, owner, conversation.id),
    };
  }

  it('searches, reads a page, streams the steps and sources before the answer, and saves them on the reply', async () => {
    const c = await chat(t);
    const page = `${site.url}/page`;
    fake.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'vitamin d intake' } }] },
      { toolCalls: [{ name: 'open_page', arguments: { url: page } }] },
      'Adults need vitamin D [1].',
    );
    const events = await c.send('How much vitamin D do adults need?');

    expect(deltasOf(events).join('')).toBe('Adults need vitamin D [1].');
    expect(stepsOf(events)).toEqual([
      { index: 0, kind: 'search', query: 'vitamin d intake', status: 'running' },
      { index: 0, kind: 'search', query: 'vitamin d intake', status: 'done' },
      { index: 1, kind: 'open', url: page, status: 'running' },
      { index: 1, kind: 'open', url: page, status: 'done' },
    ]);
    const sources = [
      { n: 1, kind: 'web', url: page, title: 'Vitamin D', snippet: 'A fact sheet about vitamin D' },
      { n: 2, kind: 'web', url: `${site.url}/other`, title: 'Iron', snippet: 'Iron carries oxygen' },
    ];
    expect(lastSources(events)).toEqual(sources);
    const firstDelta = events.findIndex((e) => e.event === 'delta');
    expect(events.findLastIndex((e) => e.event === 'sources')).toBeLessThan(firstDelta);
    expect(events.findLastIndex((e) => e.event === 'step')).toBeLessThan(firstDelta);

    const saved: Message = savedReply(events);
    const steps = [
      { kind: 'search', query: 'vitamin d intake', status: 'done' },
      { kind: 'open', url: page, status: 'done' },
    ];
    expect(saved).toMatchObject({ status: 'complete', sources, steps });
    expect((await c.messages()).at(-1)).toMatchObject({ id: saved.id, sources, steps });

    // The real tool loop ran: the tools were offered, the search and the page went back to the model.
    expect(fake.requests).toHaveLength(3);
    expect(toolsOffered(fake.requests[0]!)).toEqual(['web_search', 'open_page']);
    expect(systemPromptOf(fake.requests[0]!)).toContain('Cite what you found with [n]');
    expect(searxng.requests.map((r) => r.query)).toEqual(['vitamin d intake']);
    expect(JSON.parse(toolResultsOf(fake.requests[1]!)[0]!.content)).toMatchObject({
      results: [
        { n: 1, title: 'Vitamin D', url: page },
        { n: 2, title: 'Iron', url: `${site.url}/other` },
      ],
    });
    const read = JSON.parse(toolResultsOf(fake.requests[2]!).at(-1)!.content) as { n: number; text: string };
    expect(read.n).toBe(1);
    expect(read.text).toContain('Vitamin D is explained here in plain words.');
    expect(site.requests).toContain('/page');
  });

  it('with trusted sources, narrows the search and refuses pages outside them, lookalikes too, without connecting', async () => {
    const c = await chat(t, { ...WEB_BOT, config: { ...WEB_BOT.config, trustedSources: 'who.int' } });
    searxng.results = [
      ...defaultResults(),
      { title: 'Measles', url: 'https://www.who.int/news-room/fact-sheets/detail/measles', snippet: 'WHO fact sheet' },
    ];
    const outside = [`${site.url}/page`, 'http://who.int.evil.com/page', 'https://evilwho.int/'];
    fake.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'measles' } }] },
      { toolCalls: outside.map((url) => ({ name: 'open_page', arguments: { url } })) },
      'I can only use who.int.',
    );
    const connections = site.connections;
    const events = await c.send('Read the measles pages, including the one on my site.');

    expect(searxng.requests[0]!.query).toBe('measles (site:who.int)');
    expect(lastSources(events)).toEqual([
      {
        n: 1,
        kind: 'web',
        url: 'https://www.who.int/news-room/fact-sheets/detail/measles',
        title: 'Measles',
        snippet: 'WHO fact sheet',
      },
    ]);
    const saved = savedReply(events);
    expect(saved.status).toBe('complete');
    for (const url of outside) {
      const host = new URL(url).hostname;
      expect(stepFor(saved.steps, url)).toEqual({
        kind: 'open',
        url,
        status: 'failed',
        error: `Outside the trusted sources: ${host}`,
      });
    }
    expect(site.connections).toBe(connections);
    const refusals = toolResultsOf(fake.requests[2]!)
      .slice(-3)
      .map((r) => JSON.parse(r.content) as unknown);
    expect(refusals).toEqual(
      outside.map((url) => ({ error: `Outside the trusted sources: ${new URL(url).hostname}` })),
    );
    expect(systemPromptOf(fake.requests[0]!)).toContain(
      'You can only read pages on these trusted sources and their subdomains: who.int.',
    );
  });

  it('reports a search provider that answers 500 as a failed step, and the reply still completes', async () => {
    const c = await chat(t);
    searxng.mode = 'error';
    fake.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'news' } }] }, 'The search failed.');
    const events = await c.send('Any news?');

    const saved = savedReply(events);
    expect(saved).toMatchObject({ status: 'complete', content: 'The search failed.', sources: [] });
    const error = 'The search provider answered 500 Internal Server Error';
    expect(saved.steps).toEqual([{ kind: 'search', query: 'news', status: 'failed', error }]);
    expect(stepsOf(events).at(-1)).toEqual({ index: 0, kind: 'search', query: 'news', status: 'failed', error });
    expect(JSON.parse(toolResultsOf(fake.lastRequest())[0]!.content)).toEqual({ error });
  });

  // The provider's own time limit (10 s) is the same on every database, so one is enough.
  it.runIf(kind === 'sqlite')(
    'reports a search provider that never answers as a failed step, and the reply still completes',
    async () => {
      const c = await chat(t);
      searxng.mode = 'hang';
      fake.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'news' } }] }, 'No results in time.');
      const saved = savedReply(await c.send('Any news?'));
      expect(saved).toMatchObject({ status: 'complete', content: 'No results in time.' });
      expect(saved.steps).toEqual([
        { kind: 'search', query: 'news', status: 'failed', error: 'The search provider took too long to answer' },
      ]);
    },
    30_000,
  );

  it('without a search provider, says so plainly, and still reads a pasted link', async () => {
    const c = await chat(noSearch);
    const link = `${site.url}/other`;
    fake.enqueue(
      {
        toolCalls: [
          { name: 'web_search', arguments: { query: 'iron' } },
          { name: 'open_page', arguments: { url: link } },
        ],
      },
      'Iron carries oxygen [1].',
    );
    const events = await c.send(`What does this page say? ${link}`);

    expect(systemPromptOf(fake.requests[0]!)).toContain(`${SEARCH_NOT_CONFIGURED}, so you cannot search the web`);
    const saved = savedReply(events);
    expect(saved.steps).toEqual([
      { kind: 'search', query: 'iron', status: 'failed', error: SEARCH_NOT_CONFIGURED },
      { kind: 'open', url: link, status: 'done' },
    ]);
    expect(saved.sources).toEqual([
      { n: 1, kind: 'web', url: link, title: 'Iron', snippet: expect.stringContaining('Iron carries oxygen') },
    ]);
    expect(searxng.requests).toEqual([]);
  });

  it('offers a bot without web browsing no tools and no word about browsing', async () => {
    const c = await chat(t, { capabilities: ['memory_context'], config: { useKnowledgeCutoff: true } });
    const events = await c.send('What is new today?');

    expect(savedReply(events)).toMatchObject({ status: 'complete', steps: [], sources: [] });
    const request = fake.lastRequest();
    expect(request.body.tools).toBeUndefined();
    const system = systemPromptOf(request);
    expect(system).not.toMatch(/browse|web_search|open_page/);
    expect(system).toContain('say that your information may be out of date.');
  });

  it('researches up front when the model refuses tools, and the answer still has its sources', async () => {
    const c = await chat(t);
    fake.setReply((request) => (request.body.tools ? { status: 400, message: 'tools are not supported' } : 'Yes [1].'));
    const link = `${site.url}/text`;
    const events = await c.send(`Is vitamin D safe? See ${link}.`);

    expect(fake.requests.map((r) => toolsOffered(r).length)).toEqual([2, 0]);
    expect(searxng.requests.map((r) => r.query)).toEqual([`Is vitamin D safe? See ${link}.`]);
    const saved = savedReply(events);
    expect(saved).toMatchObject({ status: 'complete', content: 'Yes [1].' });
    expect(saved.steps).toEqual([
      { kind: 'search', query: `Is vitamin D safe? See ${link}.`, status: 'done' },
      { kind: 'open', url: link, status: 'done' },
    ]);
    expect(saved.sources.map((s) => [s.n, s.url])).toEqual([
      [1, `${site.url}/page`],
      [2, `${site.url}/other`],
      [3, link],
    ]);
    expect(lastSources(events)).toEqual(saved.sources);
    expect(events.findLastIndex((e) => e.event === 'sources')).toBeLessThan(
      events.findIndex((e) => e.event === 'delta'),
    );

    const system = systemPromptOf(fake.lastRequest());
    expect(system).toContain('Before answering, the web was researched for this message');
    expect(system).toContain(`[1] Vitamin D (${site.url}/page)\nA fact sheet about vitamin D`);
    expect(system).toContain(`[3] 127.0.0.1/text (${link})\nPlain text, read as it is.`);
    expect(system).not.toContain('web_search finds pages');
  });
});
