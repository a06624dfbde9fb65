import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, streamChat } from '../../../../tests/support/chat-api';
import { createBot } from '../../../../tests/support/factories';
import { parsePrometheusText, sampleValue } from '../../../../tests/support/prometheus';
import { signUp, startTestApp, startTestAppWithModel } from '../../../../tests/support/test-app';

const TOKEN = 'scrape-me-0123456789';

describe('GET /metrics', () => {
  let t: Awaited<ReturnType<typeof startTestAppWithModel>>;
  beforeAll(async () => {
    t = await startTestAppWithModel({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  };

  it('answers 401 without the bearer token or with another one', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    expect((await t.request('GET', '/metrics', { token: 'not-the-token' })).status).toBe(401);
  });

  it('is not there at all without METRICS_TOKEN', async () => {
    const other = await startTestApp();
    try {
      expect((await other.request('GET', '/metrics', { token: TOKEN })).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('exposes the instance in the text format, each reply moving the counters by one', async () => {
    const first = await scrape();
    expect([...first.keys()]).toEqual(
      expect.arrayContaining([
        'botty_http_requests_total',
        'botty_replies_total',
        'botty_reply_first_token_seconds',
        'botty_reply_duration_seconds',
        'botty_reply_tokens_total',
        'botty_open_streams',
        'botty_extraction_queue_depth',
        'botty_database_up',
        'botty_process_cpu_seconds_total',
      ]),
    );
    expect(first.get('botty_reply_duration_seconds')!.type).toBe('histogram');
    expect(sampleValue(first, 'botty_database_up')).toBe(1);
    expect(sampleValue(first, 'botty_extraction_queue_depth')).toBe(0);
    // No REDIS_URL: nothing to be up or down.
    expect(first.has('botty_redis_up')).toBe(false);

    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const conversation = await createConversation(t, token, bot.id);
    const path = `/api/conversations/${conversation.id}/stream`;
    let before = await scrape();
    for (const content of ['Hello', 'Again']) {
      t.fake.enqueue({ text: `Answer to ${content}`, chunks: ['Answer ', 'to ', content] });
      const events = await streamChat(t, path, { token, body: { content } });
      expect(events.at(-1)).toMatchObject({ event: 'done' });
      const after = await scrape();
      const moved = (name: string, labels?: Record<string, string>) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);
      expect(moved('botty_replies_total', { outcome: 'complete' })).toBe(1);
      expect(moved('botty_replies_total', { outcome: 'failed' })).toBe(0);
      expect(moved('botty_reply_first_token_seconds_count')).toBe(1);
      expect(moved('botty_reply_duration_seconds_count')).toBe(1);
      expect(moved('botty_reply_tokens_total', { kind: 'output' })).toBeGreaterThan(0);
      expect(
        moved('botty_http_requests_total', { method: 'POST', route: '/api/conversations/:id/stream', status: '200' }),
      ).toBe(1);
      before = after;
    }
    expect(sampleValue(before, 'botty_open_streams')).toBe(0);
  });
});
