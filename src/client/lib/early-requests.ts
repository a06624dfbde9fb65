import { getAuthToken } from '@/lib/storage';

/** The stored token's check (lib/auth.ts), which every signed-in page waits for. */
export const SESSION_URL = '/api/auth/user';

/** An early answer not claimed within this is left unused: the app's own request would be the newer one. */
const FRESH_MS = 10_000;

interface Sent {
  token: string;
  sentAt: number;
  response: Promise<Response>;
}

const sent = new Map<string, Sent>();

/**
 * Sends the session check and the GET requests `urls` as the page's first script runs, with the stored token:
 * the app's own code (React, the router, the page's chunks) takes hundreds of milliseconds to load and run
 * before its queries ask the same (issue 26). `apiFetch` hands each answer to the first request of the same
 * address with the same token, once. Nothing is sent without a token.
 */
export function sendEarly(urls: readonly string[]) {
  const token = getAuthToken();
  if (!token) return;
  for (const url of [SESSION_URL, ...urls]) {
    const response = fetch(url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'include' });
    // An answer nobody claims (the visitor went elsewhere) must not report its failure as unhandled.
    response.catch(() => {});
    sent.set(url, { token, sentAt: performance.now(), response });
  }
}

/** The early answer for a GET of `url` with `token`, taken once; none when none was sent, or not with it. */
export function takeEarly(url: string, token: string | null): Promise<Response> | undefined {
  const early = sent.get(url);
  if (!early) return undefined;
  sent.delete(url);
  return early.token === token && performance.now() - early.sentAt < FRESH_MS ? early.response : undefined;
}
