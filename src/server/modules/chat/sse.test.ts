import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from './sse';

const HEARTBEAT_MS = 5;

describe('openSse', () => {
  const app = Fastify();
  let url: string;
  let gone: AbortSignal | undefined;
  /** Lets the held reply send its last event and end: the test calls it once it has seen the heartbeats. */
  let finish = () => {};

  beforeAll(async () => {
    app.addHook('onRequest', async (_request, reply) => void reply.header('x-from-hook', 'kept'));
    app.get('/events', async (request, reply) => {
      const sse = openSse(reply, HEARTBEAT_MS);
      gone = sse.gone;
      sse.send({ event: 'delta', data: { text: 'line one\nline two' } });
      if (request.query && (request.query as { hold?: string }).hold) return;
      await new Promise<void>((resolve) => (finish = resolve));
      sse.send({ event: 'done', data: null });
      sse.end();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  it('sends headers at once, events as one data line each, and heartbeats meanwhile', async () => {
    // The reply is held until the test lets it end: the headers have come before anything else was written.
    const res = await fetch(`${url}/events`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-from-hook')).toBe('kept');
    expect(res.headers.get('connection')).toBe('keep-alive');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const heartbeats = () => text.match(/^: heartbeat\n\n/gm)?.length ?? 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += chunk.value;
      if (heartbeats() >= 2) finish();
    }
    expect(text.startsWith('event: delta\ndata: {"text":"line one\\nline two"}\n\n')).toBe(true);
    expect(heartbeats()).toBeGreaterThanOrEqual(2);
    expect(text.endsWith('event: done\ndata: null\n\n')).toBe(true);
    expect(gone!.aborted).toBe(false);
  });

  it('signals when the client goes away', async () => {
    // node:http rather than fetch: undici opens a spare connection after an abort, which would hold app.close().
    const request = get(`${url}/events?hold=1`, (res) => res.once('data', () => request.destroy()));
    request.on('error', () => {});
    await expect.poll(() => gone?.aborted, { interval: 5 }).toBe(true);
  });
});
