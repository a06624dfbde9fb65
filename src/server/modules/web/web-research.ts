import type { WebConfig } from '../../config';
import { createSafeFetch, type SafeFetch, type SafeFetchOptions } from './safe-fetch';
import { createSearchProvider, type SearchProvider } from './search-providers';

export interface WebResearch {
  fetchPage: SafeFetch;
  /** Null when SEARCH_PROVIDER=none. */
  search: SearchProvider | null;
}

/**
 * The page fetch and search provider the operator configured; one per server, so the page cache is shared.
 * `options` plugs in the PDF reader, and in tests a resolver and connector that never leave the machine.
 */
export function createWebResearch(
  config: WebConfig,
  options: Pick<SafeFetchOptions, 'readPdf' | 'resolve' | 'connect'> = {},
): WebResearch {
  return {
    fetchPage: createSafeFetch({
      ...options,
      allowHosts: config.fetchAllowHosts,
      allowPorts: config.fetchAllowPorts,
    }),
    search: createSearchProvider(config.search),
  };
}
