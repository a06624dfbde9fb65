import { z } from 'zod';
import type { WebConfig } from '../../config';
import { isTrustedHost, siteFilter } from './trusted-hosts';
import { WebError } from './web-error';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchOptions {
  /** Domains the search is narrowed to and its results filtered by; empty searches the whole web. */
  trustedSources?: readonly string[];
  signal?: AbortSignal;
  /** How many results at most; 5 unless said. */
  limit?: number;
}

export interface SearchProvider {
  name: 'searxng' | 'brave' | 'tavily';
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
}

/** One provider's wire format: how to ask, and how to read the answer into results. */
interface ProviderApi {
  request(query: string, trustedSources: readonly string[], limit: number): { url: string; init: RequestInit };
  results(json: unknown): SearchResult[];
}

const withSites = (query: string, trustedSources: readonly string[]) =>
  trustedSources.length ? `${query} (${siteFilter(trustedSources)})` : query;

const text = z.string().catch('');
const searxngAnswer = z.object({
  results: z.array(z.object({ title: text, url: z.string(), content: text })),
});
const braveAnswer = z.object({
  web: z.object({ results: z.array(z.object({ title: text, url: z.string(), description: text })) }).optional(),
});
const tavilyAnswer = searxngAnswer;

/** Brave marks query words in its snippets with <strong>. */
const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');

function providerApi(provider: SearchProvider['name'], config: WebConfig['search']): ProviderApi {
  const base = (fallback: string) => (config.url ?? fallback).replace(/\/+$/, '');
  switch (provider) {
    case 'searxng':
      return {
        request: (query, trusted) => ({
          url: `${base('')}/search?${new URLSearchParams({ q: withSites(query, trusted), format: 'json' })}`,
          init: { headers: { accept: 'application/json' } },
        }),
        results: (json) =>
          searxngAnswer.parse(json).results.map((r) => ({ title: r.title, url: r.url, snippet: r.content })),
      };
    case 'brave':
      return {
        request: (query, trusted, limit) => ({
          url: `${base('https://api.search.brave.com')}/res/v1/web/search?${new URLSearchParams({
            q: withSites(query, trusted),
            count: String(Math.min(limit * 2, 20)),
          })}`,
          init: { headers: { accept: 'application/json', 'x-subscription-token': config.apiKey ?? '' } },
        }),
        results: (json) =>
          (braveAnswer.parse(json).web?.results ?? []).map((r) => ({
            title: stripTags(r.title),
            url: r.url,
            snippet: stripTags(r.description),
          })),
      };
    case 'tavily':
      return {
        // Tavily narrows by domain itself, so the query stays as the user wrote it.
        request: (query, trusted, limit) => ({
          url: `${base('https://api.tavily.com')}/search`,
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey ?? ''}` },
            body: JSON.stringify({
              query,
              max_results: Math.min(limit * 2, 20),
              ...(trusted.length ? { include_domains: trusted } : {}),
            }),
          },
        }),
        results: (json) =>
          tavilyAnswer.parse(json).results.map((r) => ({ title: r.title, url: r.url, snippet: r.content })),
      };
  }
}

/**
 * The search provider the operator configured, or null when `SEARCH_PROVIDER=none`. Its calls go to the
 * operator's own endpoint (not page content, so not through the safe fetch) but never outlast `timeoutMs`.
 */
export function createSearchProvider(
  config: WebConfig['search'],
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): SearchProvider | null {
  const { provider } = config;
  if (provider === 'none') return null;
  const api = providerApi(provider, config);
  return {
    name: provider,
    async search(query, { trustedSources = [], signal, limit = 5 } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const { url, init } = api.request(query, trustedSources, limit);
      let response: Response;
      try {
        response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      } catch {
        if (timeout.aborted) throw new WebError('timeout', 'The search provider took too long to answer');
        if (signal?.aborted) throw new WebError('cancelled', 'The search was cancelled');
        throw new WebError('search-failed', 'The search provider could not be reached');
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new WebError(
          'search-failed',
          `The search provider answered ${response.status} ${response.statusText}`.trim(),
        );
      }
      let results: SearchResult[];
      try {
        results = api.results(await response.json());
      } catch {
        if (timeout.aborted) throw new WebError('timeout', 'The search provider took too long to answer');
        throw new WebError('search-failed', 'The search provider sent an answer Botty cannot read');
      }
      return results
        .filter((r) => {
          if (!URL.canParse(r.url)) return false;
          const parsed = new URL(r.url);
          return /^https?:$/.test(parsed.protocol) && isTrustedHost(parsed.hostname, trustedSources);
        })
        .slice(0, limit);
    },
  };
}
