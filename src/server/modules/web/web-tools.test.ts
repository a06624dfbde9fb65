import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../../../tests/support/fake-search';
import { startFakeWeb, type FakeWeb } from '../../../../tests/support/fake-web';
import { splitTrustedSources } from '@shared/bots/trusted-sources';
import { loadConfig } from '../../config';
import { createWebResearch } from './web-research';
import { createWebTools, SEARCH_NOT_CONFIGURED, type WebSource, type WebStepStart } from './web-tools';

let site: FakeWeb;
let searxng: FakeSearch;

beforeAll(async () => {
  site = await startFakeWeb();
  searxng = await startFakeSearch(() => [
    { title: 'Vitamin D', url: `${site.url}/page`, snippet: 'A fact sheet about vitamin D' },
    { title: 'Iron', url: `${site.url}/other`, snippet: 'Iron carries oxygen' },
  ]);
});
afterAll(async () => {
  await site.close();
  await searxng.close();
});

/** The tools as the chat will build them: from the environment, with a caller-owned source list and steps. */
function setUp({ search = true, trustedSources = '', maxPageChars = 12_000 } = {}) {
  const config = loadConfig({
    WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
    ...(search ? { SEARCH_PROVIDER: 'searxng', SEARCH_URL: searxng.url } : {}),
  });
  const sources: (WebSource & { n: number })[] = [];
  const steps: (WebStepStart & { status: string; error?: string })[] = [];
  const tools = createWebTools({
    // No name is ever looked up in the real DNS.
    ...createWebResearch(config.web, { resolve: (name) => Promise.reject(new Error(`ENOTFOUND ${name}`)) }),
    // As the bot stores them: the comma-separated text of its settings.
    trustedSources: splitTrustedSources(trustedSources),
    maxPageChars,
    addSource: (source) => {
      const same = sources.find((s) => s.url === source.url);
      if (same) return same.n;
      sources.push({ n: sources.length + 1, ...source });
      return sources.length;
    },
    startStep: (step) => {
      const index = steps.push({ ...step, status: 'running' }) - 1;
      return (status, error) => void (steps[index] = { ...step, status, ...(error ? { error } : {}) });
    },
  });
  const call = { toolCallId: 'call-1', messages: [] };
  return {
    sources,
    steps,
    search: (query: string) => tools.web_search.execute!({ query }, call),
    open: (url: string) => tools.open_page.execute!({ url }, call),
  };
}

describe('web tools', () => {
  it('web_search returns numbered results, adds them as sources and reports the step', async () => {
    const { search, sources, steps } = setUp();
    const output = await search('vitamin d');
    expect(output).toEqual({
      results: [
        { n: 1, title: 'Vitamin D', url: `${site.url}/page`, snippet: 'A fact sheet about vitamin D' },
        { n: 2, title: 'Iron', url: `${site.url}/other`, snippet: 'Iron carries oxygen' },
      ],
    });
    expect(sources.map((s) => [s.n, s.kind, s.title])).toEqual([
      [1, 'web', 'Vitamin D'],
      [2, 'web', 'Iron'],
    ]);
    expect(steps).toEqual([{ kind: 'search', query: 'vitamin d', status: 'done' }]);
  });

  it('open_page reads a page through the safe fetch and numbers it, reusing the number of a known page', async () => {
    const { search, open, sources, steps } = setUp({ maxPageChars: 100 });
    await search('vitamin d');
    const page = (await open(`${site.url}/page`)) as { n: number; title: string; text: string };
    expect(page).toMatchObject({ n: 1, title: 'Vitamin D', url: `${site.url}/page` });
    expect(page.text).toMatch(/^Vitamin D is explained here in plain words\./);
    expect(page.text).toMatch(/\[…the rest of the page is cut off\]$/);
    expect(sources).toHaveLength(2);
    expect(steps.at(-1)).toEqual({ kind: 'open', url: `${site.url}/page`, status: 'done' });
  });

  it('a refused page is a failed step with a clear error the model can read, and no source', async () => {
    const { open, sources, steps } = setUp({ trustedSources: 'nih.gov' });
    const before = site.connections;
    expect(await open(`${site.url}/page`)).toEqual({ error: 'Outside the trusted sources: 127.0.0.1' });
    expect(await open('http://nih.gov.evil.com/')).toEqual({ error: 'Outside the trusted sources: nih.gov.evil.com' });
    expect(await open('file:///etc/passwd')).toEqual({
      error: 'Only http and https addresses can be opened, not file:',
    });
    expect(site.connections).toBe(before);
    expect(sources).toEqual([]);
    expect(steps).toEqual([
      { kind: 'open', url: `${site.url}/page`, status: 'failed', error: 'Outside the trusted sources: 127.0.0.1' },
      {
        kind: 'open',
        url: 'http://nih.gov.evil.com/',
        status: 'failed',
        error: 'Outside the trusted sources: nih.gov.evil.com',
      },
      {
        kind: 'open',
        url: 'file:///etc/passwd',
        status: 'failed',
        error: 'Only http and https addresses can be opened, not file:',
      },
    ]);
  });

  it('trusted sources narrow the search and drop results outside them', async () => {
    const { search, sources } = setUp({ trustedSources: 'nih.gov' });
    searxng.requests.length = 0;
    expect(await search('vitamin d')).toEqual({ results: [] });
    expect(searxng.requests[0]!.query).toBe('vitamin d (site:nih.gov)');
    expect(sources).toEqual([]);
  });

  it.each([
    ['/image', 'Unsupported content type: image/png'],
    ['/loop', 'Too many redirects'],
    ['/huge', 'The page is too large (over 5 MB)'],
  ])('open_page on %s fails the step with "%s"', async (path, error) => {
    const { open, steps } = setUp();
    expect(await open(`${site.url}${path}`)).toEqual({ error });
    expect(steps).toEqual([{ kind: 'open', url: `${site.url}${path}`, status: 'failed', error }]);
  });

  it('says plainly when search is not configured, while reading links still works', async () => {
    const { search, open, steps } = setUp({ search: false });
    expect(await search('vitamin d')).toEqual({ error: SEARCH_NOT_CONFIGURED });
    expect(await open(`${site.url}/text`)).toMatchObject({ n: 1, text: 'Plain text, read as it is.' });
    expect(steps.map((s) => s.status)).toEqual(['failed', 'done']);
  });

  it('a search provider answering 500 fails the step clearly', async () => {
    const { search, steps } = setUp();
    searxng.mode = 'error';
    try {
      expect(await search('vitamin d')).toEqual({ error: 'The search provider answered 500 Internal Server Error' });
    } finally {
      searxng.mode = 'results';
    }
    expect(steps[0]).toMatchObject({
      status: 'failed',
      error: 'The search provider answered 500 Internal Server Error',
    });
  });
});
