import { APICallError } from 'ai';
import { setTimeout as sleep } from 'node:timers/promises';

/** Attempts after the first when the provider is busy; each waits longer (or as long as the provider says). */
export const MODEL_RETRIES = 2;
const FIRST_DELAY_MS = 500;
/** A provider asking for a longer pause than this is not waited for: the user is told to try again later. */
export const MAX_RETRY_WAIT_MS = 10_000;

/** The provider is busy: 429 (its rate limit for our key) or 503 (overloaded: OpenAI's 503, Anthropic's 529). */
export interface ModelBusy {
  status: 429 | 503;
  /** What the provider asked for (retry-after-ms, retry-after), rounded up to seconds; null when it did not say. */
  retryAfterSeconds: number | null;
}

/** Anthropic reports overload inside a stream as an event; the SDK hands on its `error` object as it came. */
function isOverloadEvent(error: unknown) {
  return typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'overloaded_error';
}

/** An in-stream error event as the API call error it stands for, so it is told and retried like one. */
export function streamEventError(error: unknown, url: string): unknown {
  if (error instanceof Error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  return new APICallError({
    message: typeof message === 'string' ? message : 'The model reported an error mid-stream.',
    url,
    requestBodyValues: {},
    statusCode: isOverloadEvent(error) ? 529 : 500,
    responseBody: JSON.stringify(error),
    isRetryable: isOverloadEvent(error),
  });
}

function retryAfterMs(headers: Record<string, string> | undefined): number | null {
  if (!headers) return null;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (!value) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** How busy the provider is, when this error says it is busy; null for any other failure. */
export function busyOf(error: unknown): (ModelBusy & { retryAfterMs: number | null }) | null {
  if (isOverloadEvent(error)) return { status: 503, retryAfterSeconds: null, retryAfterMs: null };
  if (!APICallError.isInstance(error)) return null;
  const status = error.statusCode;
  if (status !== 429 && status !== 503 && status !== 529) return null;
  const ms = retryAfterMs(error.responseHeaders);
  return {
    status: status === 429 ? 429 : 503,
    retryAfterMs: ms,
    retryAfterSeconds: ms === null ? null : Math.ceil(ms / 1000),
  };
}

/**
 * The pause before attempt `retry` (1-based) after a busy answer, or null when there is no retry left or the
 * provider asked for a longer pause than a person waits for. Without retry-after: 0.5 s, 1 s, with jitter.
 */
export function retryDelayMs(retry: number, busy: { retryAfterMs: number | null }): number | null {
  if (retry > MODEL_RETRIES) return null;
  if (busy.retryAfterMs !== null) return busy.retryAfterMs <= MAX_RETRY_WAIT_MS ? busy.retryAfterMs : null;
  const backoff = FIRST_DELAY_MS * 2 ** (retry - 1);
  return backoff / 2 + Math.random() * (backoff / 2);
}

/** Waits, unless `signal` aborts first (then rejects with its reason). */
export const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal });

/** Runs `call`, and again while the provider answers busy and a retry is left (the short tasks' model calls). */
export async function withBusyRetries<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await call();
    } catch (error) {
      const busy = busyOf(error);
      const delay = busy ? retryDelayMs(retry, busy) : null;
      if (delay === null) throw error;
      await pause(delay, signal);
    }
  }
}
