import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../../../tests/support/fake-search';
import { createSearchProvider, type SearchProvider } from './search-providers';
import type { WebError } from './web-error';

const RESULTS = [
  {
    title: 'Vitamin D - <strong>NIH</strong>',
    url: 'https://ods.od.nih.gov/factsheets/VitaminD/',
    snippet: 'Fact sheet',
  },
  { title: 'Lookalike', url: 'https://nih.gov.evil.com/vitamin-d', snippet: 'Not NIH' },
  { title: 'WHO', url: 'https://www.who.int/news/vitamin-d', snippet: 'News' },
  { title: 'Another lookalike', url: 'https://evilnih.gov/', snippet: 'Not NIH either' },
  { title: 'Not the web', url: 'javascript:alert(1)', snippet: '' },
  { title: 'Broken', url: 'not a url', snippet: '' },
];

let fake: FakeSearch;
beforeAll(async () => {
  fake = await startFakeSearch(RESULTS);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.mode = 'results';
  fake.requests.length = 0;
});

const provider = (name: 'searxng' | 'brave' | 'tavily', timeoutMs?: number) =>
  createSearchProvider({ provider: name, url: fake.url, apiKey: 'secret-key' }, { timeoutMs })!;

async function failure(promise: Promise<unknown>): Promise<WebError> {
  const error = await promise.then(
    () => {
      throw new Error('the search succeeded');
    },
    (err: unknown) => err as WebError,
  );
  expect(error.name).toBe('WebError');
  return error;
}

describe('search providers', () => {
  it('has none when SEARCH_PROVIDER=none', () => {
    expect(createSearchProvider({ provider: 'none', url: undefined, apiKey: undefined })).toBeNull();
  });

  it('asks SearXNG’s JSON API and keeps only web addresses', async () => {
    const results = await provider('searxng').search('vitamin d', { limit: 10 });
    expect(fake.requests).toMatchObject([{ api: 'searxng', query: 'vitamin d' }]);
    expect(results.map((r) => r.url)).toEqual([
      'https://ods.od.nih.gov/factsheets/VitaminD/',
      'https://nih.gov.evil.com/vitamin-d',
      'https://www.who.int/news/vitamin-d',
      'https://evilnih.gov/',
    ]);
    expect(results[2]).toEqual({ title: 'WHO', url: 'https://www.who.int/news/vitamin-d', snippet: 'News' });
  });

  it.each(['searxng', 'brave'] as const)(
    '%s: narrows the query with site filters and drops lookalike results',
    async (name) => {
      const results = await provider(name).search('vitamin d', { trustedSources: ['nih.gov', 'who.int'] });
      expect(fake.requests[0]!.query).toBe('vitamin d (site:nih.gov OR site:who.int)');
      expect(results.map((r) => r.url)).toEqual([
        'https://ods.od.nih.gov/factsheets/VitaminD/',
        'https://www.who.int/news/vitamin-d',
      ]);
    },
  );

  it('brave: sends the subscription token and strips its highlight tags', async () => {
    const [first] = await provider('brave').search('vitamin d', { limit: 1 });
    expect(first).toEqual({
      title: 'Vitamin D - NIH',
      url: 'https://ods.od.nih.gov/factsheets/VitaminD/',
      snippet: 'Fact sheet',
    });
    expect(fake.requests[0]!.headers['x-subscription-token']).toBe('secret-key');
  });

  it('tavily: posts the query with the key and the trusted domains', async () => {
    const results = await provider('tavily').search('vitamin d', { trustedSources: ['nih.gov'], limit: 3 });
    expect(fake.requests[0]).toMatchObject({
      api: 'tavily',
      query: 'vitamin d',
      headers: { authorization: 'Bearer secret-key' },
      body: { include_domains: ['nih.gov'], max_results: 6 },
    });
    expect(results.map((r) => r.url)).toEqual(['https://ods.od.nih.gov/factsheets/VitaminD/']);
  });

  it('keeps to the limit', async () => {
    expect(await provider('searxng').search('vitamin d', { limit: 2 })).toHaveLength(2);
  });

  it.each(['searxng', 'brave', 'tavily'] as const)('%s: a 500 gives a clear error', async (name) => {
    fake.mode = 'error';
    const error = await failure(provider(name).search('vitamin d'));
    expect(error).toMatchObject({
      code: 'search-failed',
      message: 'The search provider answered 500 Internal Server Error',
    });
  });

  it('a provider that hangs gives a clear error within its time limit', async () => {
    fake.mode = 'hang';
    const started = Date.now();
    const error = await failure(provider('searxng', 300).search('vitamin d'));
    expect(error).toMatchObject({ code: 'timeout', message: 'The search provider took too long to answer' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('says when the provider cannot be reached or answers something unreadable', async () => {
    const closed: SearchProvider = createSearchProvider({
      provider: 'searxng',
      url: 'http://127.0.0.1:9',
      apiKey: undefined,
    })!;
    expect((await failure(closed.search('x'))).message).toBe('The search provider could not be reached');
    const notSearxng = createSearchProvider({ provider: 'searxng', url: `${fake.url}/nowhere`, apiKey: undefined })!;
    expect((await failure(notSearxng.search('x'))).message).toBe('The search provider answered 404 Not Found');
    fake.mode = 'garbage';
    expect((await failure(provider('brave').search('x'))).message).toBe(
      'The search provider sent an answer Botty cannot read',
    );
  });
});
