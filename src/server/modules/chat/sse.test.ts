import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseParser } from '@shared/chat/sse';
import { openSse, TEXT_GAP_MS } from './sse';

const HEARTBEAT_MS = 5;

describe('openSse', () => {
  const app = Fastify();
  let url: string;
  let gone: AbortSignal | undefined;
  /** Lets the held reply send its last event and end: the test calls it once it has seen the heartbeats. */
  let finish = () => {};
  /** What the /texts route's response was given to write, and when. */
  const writes: { at: number; text: string }[] = [];
  const TEXTS = 40;
  const STEP_AFTER = 20;

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
    app.get('/texts', async (_request, reply) => {
      const raw = reply.raw;
      const write = raw.write.bind(raw) as (chunk: string) => boolean;
      raw.write = ((chunk: string) => {
        writes.push({ at: performance.now(), text: String(chunk) });
        return write(chunk);
      }) as typeof raw.write;
      const sse = openSse(reply);
      const text = (n: number) => sse.send({ event: 'delta', data: { text: `t${n} ` } }, undefined, { text: true });
      // Texts each on a turn of its own, as fast as the event loop goes, then a step; then texts 2 ms apart.
      for (let n = 0; n < TEXTS; n++) {
        text(n);
        if (n === STEP_AFTER) sse.send({ event: 'step', data: { n } });
        await (n < STEP_AFTER ? new Promise(setImmediate) : sleep(2));
      }
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

  it('sends the first text at once, later text at most once in TEXT_GAP_MS, and other events with no wait', async () => {
    const body = await (await fetch(`${url}/texts`)).text();
    const events = createSseParser().push(body);
    const texts = Array.from({ length: TEXTS }, (_, n) => `t${n} `);
    expect(events.filter(({ event }) => event === 'delta').map(({ data }) => JSON.parse(data).text)).toEqual(texts);
    expect(events.map(({ event }) => event).slice(STEP_AFTER, STEP_AFTER + 3)).toEqual(['delta', 'step', 'delta']);
    expect(events.at(-1)!.event).toBe('done');

    const withText = writes.filter(({ text }) => text.includes('event: delta'));
    expect(withText[0]!.text).toContain('t0 ');
    // The first twenty texts, a turn apart: the first at once, the others with the step (unless the turns took
    // longer than a gap, which they do not even on a loaded machine).
    const stepWrite = writes.findIndex(({ text }) => text.includes('event: step'));
    expect(withText.filter((write) => writes.indexOf(write) <= stepWrite).length).toBeLessThanOrEqual(3);
    // No two writes of text closer than the gap, but for the step's (it does not wait).
    for (const [index, write] of withText.entries()) {
      if (index === 0 || write.text.includes('event: step')) continue;
      // A timer may fire a fraction of a millisecond early on the clock of performance.now().
      expect(write.at - withText[index - 1]!.at).toBeGreaterThan(TEXT_GAP_MS - 1);
    }
    // The step did not wait for the gap, and took the text written before it along.
    expect(writes.find(({ text }) => text.includes('event: step'))!.text).toContain(`t${STEP_AFTER} `);
  });
});
