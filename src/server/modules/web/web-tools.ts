import { tool } from 'ai';
import { z } from 'zod';
import type { ReplyStep } from '@shared/contracts/chat';
import type { SafeFetch } from './safe-fetch';
import type { SearchProvider } from './search-providers';
import { WebError } from './web-error';

export interface WebSource {
  kind: 'web';
  url: string;
  title: string;
  snippet: string;
}

/** A step as it starts; the caller's function returned for it records how it ended. */
export type WebStepStart = Pick<ReplyStep, 'kind' | 'query' | 'url'>;
export type EndStep = (status: 'done' | 'failed', error?: string) => void;

export interface WebToolsOptions {
  /** The bot's trusted domains; empty trusts the whole public web. */
  trustedSources: readonly string[];
  /** Null when no search provider is configured: web_search then says so and reading links still works. */
  search: SearchProvider | null;
  fetchPage: SafeFetch;
  /** Adds a source to the reply's numbered list (or finds it there) and returns its number for [n] citations. */
  addSource(source: WebSource): number;
  /** Reports a step as running; the returned function reports it done or failed. */
  startStep(step: WebStepStart): EndStep;
  /** How much of a page's text goes to the model. */
  maxPageChars?: number;
  /** How many results a search gives the model. */
  searchLimit?: number;
}

export const SEARCH_NOT_CONFIGURED = 'Web search is not configured on this server';

const SNIPPET_CHARS = 300;
const snippetOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
};

/** Runs one step: reports it, and turns a web failure into an answer the model can read and explain. */
async function asStep<T>(
  startStep: WebToolsOptions['startStep'],
  step: WebStepStart,
  work: () => Promise<T>,
): Promise<T | { error: string }> {
  const end = startStep(step);
  try {
    const result = await work();
    end('done');
    return result;
  } catch (err) {
    const message = err instanceof WebError ? err.message : 'Something went wrong on the way';
    end('failed', message);
    if (!(err instanceof WebError)) throw err;
    return { error: message };
  }
}

/**
 * The AI SDK tools of a web-browsing bot: `web_search` and `open_page`. Every page goes through the safe fetch
 * with the bot's trusted sources; what the model sees is numbered as sources for [n] citations.
 */
export function createWebTools(options: WebToolsOptions) {
  const { trustedSources, search, fetchPage, addSource, startStep } = options;
  const maxPageChars = options.maxPageChars ?? 12_000;
  const within = trustedSources.length ? ` Only these sites are allowed: ${trustedSources.join(', ')}.` : '';
  return {
    web_search: tool({
      description: `Search the web for current information. Returns numbered results to cite as [n]; open a result with open_page to read it.${within}`,
      inputSchema: z.object({ query: z.string().trim().min(1).max(400).describe('What to search for') }),
      execute: ({ query }, { abortSignal }) =>
        asStep(startStep, { kind: 'search', query }, async () => {
          if (!search) throw new WebError('search-not-configured', SEARCH_NOT_CONFIGURED);
          const results = await search.search(query, {
            trustedSources,
            signal: abortSignal,
            limit: options.searchLimit,
          });
          return {
            results: results.map((r) => ({
              n: addSource({ kind: 'web', url: r.url, title: r.title, snippet: snippetOf(r.snippet) }),
              ...r,
            })),
          };
        }),
    }),
    open_page: tool({
      description: `Read a web page (http or https address) as text. Returns its number to cite as [n].${within}`,
      inputSchema: z.object({ url: z.string().trim().min(1).max(2000).describe('The full address of the page') }),
      execute: ({ url }, { abortSignal }) =>
        asStep(startStep, { kind: 'open', url }, async () => {
          const page = await fetchPage(url, { trustedSources, signal: abortSignal });
          const n = addSource({ kind: 'web', url: page.url, title: page.title, snippet: snippetOf(page.text) });
          const truncated = page.text.length > maxPageChars;
          return {
            n,
            title: page.title,
            url: page.url,
            text: truncated ? `${page.text.slice(0, maxPageChars)}\n[…the rest of the page is cut off]` : page.text,
          };
        }),
    }),
  };
}
