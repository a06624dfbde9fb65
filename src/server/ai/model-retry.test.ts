import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { busyOf, MAX_RETRY_WAIT_MS, MODEL_RETRIES, retryDelayMs, streamEventError } from './model-retry';

const apiError = (statusCode: number, responseHeaders?: Record<string, string>) =>
  new APICallError({
    message: 'upstream',
    url: 'http://model.test',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
  });

describe('busyOf', () => {
  it('reads 429 as a rate limit and 503, 529 and an overloaded_error event as overload', () => {
    expect(busyOf(apiError(429))).toEqual({ status: 429, retryAfterMs: null, retryAfterSeconds: null });
    expect(busyOf(apiError(503))).toMatchObject({ status: 503 });
    expect(busyOf(apiError(529))).toMatchObject({ status: 503 });
    expect(busyOf({ type: 'overloaded_error', message: 'Overloaded' })).toMatchObject({ status: 503 });
    expect(busyOf(apiError(500))).toBeNull();
    expect(busyOf(new Error('other'))).toBeNull();
  });

  it('honours retry-after-ms before retry-after, in seconds or as a date', () => {
    expect(busyOf(apiError(429, { 'retry-after-ms': '250', 'retry-after': '9' }))).toMatchObject({
      retryAfterMs: 250,
      retryAfterSeconds: 1,
    });
    expect(busyOf(apiError(429, { 'retry-after': '7' }))).toMatchObject({ retryAfterMs: 7000, retryAfterSeconds: 7 });
    const at = new Date(Date.now() + 3_000).toUTCString();
    expect(busyOf(apiError(503, { 'retry-after': at }))!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(busyOf(apiError(503, { 'retry-after': 'soon' }))).toMatchObject({ retryAfterMs: null });
  });
});

describe('retryDelayMs', () => {
  it('backs off with jitter, waits as long as asked up to a limit, and stops after the last retry', () => {
    for (const retry of [1, 2]) {
      const delay = retryDelayMs(retry, { retryAfterMs: null })!;
      expect(delay).toBeGreaterThanOrEqual(250 * 2 ** (retry - 1));
      expect(delay).toBeLessThanOrEqual(500 * 2 ** (retry - 1));
    }
    expect(retryDelayMs(1, { retryAfterMs: 1200 })).toBe(1200);
    expect(retryDelayMs(1, { retryAfterMs: MAX_RETRY_WAIT_MS + 1 })).toBeNull();
    expect(retryDelayMs(MODEL_RETRIES + 1, { retryAfterMs: 0 })).toBeNull();
  });
});

describe('streamEventError', () => {
  it('turns an in-stream overloaded_error into a retryable 529, and any other event into a 500', () => {
    const overloaded = streamEventError({ type: 'overloaded_error', message: 'Overloaded' }, '');
    expect(overloaded).toMatchObject({ statusCode: 529, isRetryable: true, message: 'Overloaded' });
    expect(streamEventError({ type: 'api_error', message: 'Boom' }, '')).toMatchObject({ statusCode: 500 });
    const error = new Error('kept');
    expect(streamEventError(error, '')).toBe(error);
  });
});
