import { Agent, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { openSse } from '../modules/chat/sse';
import { openNdjson } from './ndjson-stream';

const streams = {
  'server-sent events': (reply: Parameters<typeof openSse>[0]) => {
    const sse = openSse(reply);
    sse.send({ event: 'delta', data: { text: 'held' } });
    return () => sse.end();
  },
  NDJSON: (reply: Parameters<typeof openNdjson>[0]) => {
    const ndjson = openNdjson<{ text: string }>(reply);
    ndjson.send({ text: 'held' });
    return () => ndjson.end();
  },
};

describe.each(Object.entries(streams))('a response streamed as %s', (_kind, open) => {
  it('keeps its connection for the next request, but not once the server is closing', async () => {
    const app = Fastify();
    app.addHook('onRequest', async (_request, reply) => void reply.header('x-from-hook', 'kept'));
    let end: (() => void) | undefined;
    app.get('/stream', async (_request, reply) => {
      end = open(reply);
    });
    // A stream stopped by the shutdown ends once the server has stopped listening.
    app.addHook('preClose', async () => void setTimeout(() => end?.(), 50));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true });
    const sockets = new Set<unknown>();
    const headers: string[] = [];
    const ask = (endWhenHeld: boolean) =>
      new Promise<string>((resolve, reject) => {
        const { port } = app.server.address() as AddressInfo;
        get({ host: '127.0.0.1', port, path: '/stream', agent }, (res) => {
          sockets.add(res.socket);
          headers.push(String(res.headers['x-from-hook']));
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
            if (endWhenHeld && text.includes('held')) end?.();
          });
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
    await ask(true);
    await ask(true);
    expect(sockets.size).toBe(1);
    expect(headers).toEqual(['kept', 'kept']);
    end = undefined;
    const held = ask(false);
    await expect.poll(() => end).toBeDefined();
    // Resolves only if the stream's connection closes when it ends (Fastify's keep-alive timeout is 72 s).
    await app.close();
    expect(await held).toContain('held');
    agent.destroy();
  });
});
