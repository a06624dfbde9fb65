import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from './sse';

describe('openSse', () => {
  const app = Fastify();
  let url: string;
  let gone: AbortSignal | undefined;

  beforeAll(async () => {
    app.addHook('onRequest', async (_request, reply) => void reply.header('x-from-hook', 'kept'));
    app.get('/events', async (request, reply) => {
      const sse = openSse(reply, 20);
      gone = sse.gone;
      sse.send({ event: 'delta', data: { text: 'line one\nline two' } });
      if (request.query && (request.query as { hold?: string }).hold) return;
      await sleep(70);
      sse.send({ event: 'done', data: null });
      sse.end();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  it('sends headers at once, events as one data line each, and heartbeats meanwhile', async () => {
    const res = await fetch(`${url}/events`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-from-hook')).toBe('kept');
    expect(res.headers.get('connection')).toBe('keep-alive');
    const text = await res.text();
    expect(text.startsWith('event: delta\ndata: {"text":"line one\\nline two"}\n\n')).toBe(true);
    expect(text.match(/^: heartbeat\n\n/gm)!.length).toBeGreaterThanOrEqual(2);
    expect(text.endsWith('event: done\ndata: null\n\n')).toBe(true);
    expect(gone!.aborted).toBe(false);
  });

  it('signals when the client goes away', async () => {
    // node:http rather than fetch: undici opens a spare connection after an abort, which would hold app.close().
    const request = get(`${url}/events?hold=1`, (res) => res.once('data', () => request.destroy()));
    request.on('error', () => {});
    await expect.poll(() => gone?.aborted).toBe(true);
  });
});
