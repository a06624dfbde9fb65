import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSink } from '../../../tests/support/log-sink';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { loggablePath } from './request-log';

describe('the request log', () => {
  const log = logSink();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'info' }, logStream: log.stream });
  });
  afterAll(() => t.close());

  const requestLines = () => log.entries().filter((entry) => 'status' in entry);

  it('writes one line per request with method, path, status, time and request id', async () => {
    const res = await t.request('GET', '/api/health?verbose=1');
    await expect.poll(() => requestLines().length).toBe(1);
    expect(requestLines()[0]).toMatchObject({
      method: 'GET',
      path: '/api/health',
      status: 200,
      ms: expect.any(Number),
      reqId: res.body.requestId ?? expect.any(String),
      msg: expect.stringMatching(/^GET \/api\/health 200 \d+ ms$/),
    });
    expect(log.entries().map((entry) => entry.msg)).not.toContain('incoming request');
    expect(log.entries().map((entry) => entry.msg)).not.toContain('request completed');
  });

  it('never writes the token of a mailed link', async () => {
    const before = requestLines().length;
    await t.request('GET', '/api/auth/verify-email/secret-verify-token');
    await t.request('GET', '/reset-password/secret-reset-token');
    await expect.poll(() => requestLines().length).toBe(before + 2);
    expect(requestLines().map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['/api/auth/verify-email/<token>', '/reset-password/<token>']),
    );
    expect(log.lines.join('\n')).not.toMatch(/secret-(verify|reset)-token/);
  });

  it('masks tokens wherever the mailed paths stand and drops the query string', () => {
    expect(loggablePath('/verify-email/abc?x=1')).toBe('/verify-email/<token>');
    expect(loggablePath('/reset-password/abc/')).toBe('/reset-password/<token>/');
    expect(loggablePath('/api/bots/3?limit=2')).toBe('/api/bots/3');
  });
});
