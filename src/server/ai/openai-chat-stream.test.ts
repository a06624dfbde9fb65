import { APICallError } from 'ai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { streamOpenAiChat, type ChatStreamSink } from './openai-chat-stream';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listen(server: Server | ReturnType<typeof createTcpServer>) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function collect() {
  const got = { text: '', started: 0, calls: [] as unknown[], usage: [] as unknown[] };
  const sink: ChatStreamSink = {
    text: (delta) => (got.text += delta),
    started: () => (got.started += 1),
    toolCall: (call) => got.calls.push(call),
    usage: (input, output) => got.usage.push([input, output]),
  };
  return { got, sink };
}

const ask = (baseURL: string, sink: ChatStreamSink, signal = new AbortController().signal) =>
  streamOpenAiChat(
    { baseURL, modelId: 'm', headers: { authorization: 'Bearer k' } },
    { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], abortSignal: signal },
    sink,
  );

const event = (body: object) => `data: ${JSON.stringify(body)}\n\n`;

describe('streamOpenAiChat', () => {
  it('reads events split anywhere across network chunks, to the last one, assembles tool calls, and reports usage', async () => {
    const body =
      event({ choices: [{ delta: { role: 'assistant', content: '' } }] }) +
      event({ choices: [{ delta: { content: 'Héllo' } }] }).replace(/\n\n$/, '\r\n\r\n') +
      event({ choices: [{ delta: { content: ' world' } }] }) +
      event({
        choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'search', arguments: '' } }] } }],
      }) +
      event({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] } }] }) +
      ': a comment\n\n' +
      event({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] } }] }) +
      // The last event without the blank line after it.
      event({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 7 } }).trimEnd();
    const bytes = Buffer.from(body);
    let requestBody: unknown;
    const baseURL = await listen(
      createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', async () => {
          requestBody = JSON.parse(text);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Seven-byte pieces cut through lines, JSON and the two bytes of 'é'.
          for (let i = 0; i < bytes.length; i += 7) {
            res.write(bytes.subarray(i, i + 7));
            await sleep(1);
          }
          res.end();
        });
      }),
    );
    const { got, sink } = collect();
    await ask(baseURL, sink);
    expect(got.text).toBe('Héllo world');
    expect(got.calls).toEqual([{ type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{"q":"x"}' }]);
    expect(got.usage).toEqual([[5, 7]]);
    expect(requestBody).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('fails with the status and body of an error answer', async () => {
    const baseURL = await listen(
      createServer((_req, res) => {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'slow down' } }));
      }),
    );
    const error: unknown = await ask(baseURL, collect().sink).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 429,
      message: 'slow down',
      responseBody: expect.stringContaining('slow'),
    });
  });

  it('reuses the connection of a finished stream, and asks again when the server closed a reused one', async () => {
    const sockets = new Set<Socket>();
    const answer = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event({ choices: [{ delta: { content: 'ok' } }] }) + 'data: [DONE]\n\n');
    };
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume().on('end', () => answer(res));
    });
    const baseURL = await listen(server);
    for (let i = 0; i < 3; i += 1) {
      const { got, sink } = collect();
      await ask(baseURL, sink);
      expect(got.text).toBe('ok');
    }
    expect(sockets.size).toBe(1);

    // A server that drops every kept-alive connection as the next request arrives on it, answering nothing.
    const served = new WeakSet<Socket>();
    const dropping = createTcpServer((socket) => {
      socket.on('data', () => {
        if (served.has(socket)) return socket.destroy();
        served.add(socket);
        const sse = event({ choices: [{ delta: { content: 'fine' } }] }) + 'data: [DONE]\n\n';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: keep-alive\r\ncontent-length: ${Buffer.byteLength(sse)}\r\n\r\n${sse}`,
        );
      });
    });
    const droppingURL = await listen(dropping);
    for (let i = 0; i < 3; i += 1) {
      const { got, sink } = collect();
      await ask(droppingURL, sink);
      expect(got.text).toBe('fine');
    }
  });

  it('keeps the connections of a burst larger than Node keeps by default (256) for the next burst', async () => {
    const BURST = 300;
    const sockets = new Set<Socket>();
    let waiting: ServerResponse[] = [];
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume().on('end', () => {
        // Answered together once the whole burst is in, so it needs BURST connections at once.
        waiting.push(res);
        if (waiting.length < BURST) return;
        for (const held of waiting) {
          held.writeHead(200, { 'content-type': 'text/event-stream' });
          held.end(event({ choices: [{ delta: { content: 'ok' } }] }) + 'data: [DONE]\n\n');
        }
        waiting = [];
      });
    });
    const baseURL = await listen(server);
    for (let burst = 0; burst < 2; burst += 1) {
      const texts = await Promise.all(
        Array.from({ length: BURST }, async () => {
          const { got, sink } = collect();
          await ask(baseURL, sink);
          return got.text;
        }),
      );
      expect(texts.every((text) => text === 'ok')).toBe(true);
      // The finished streams' connections go back to the pool on the next turns of the event loop.
      await sleep(50);
    }
    expect(sockets.size).toBe(BURST);
  });

  it('ends at once, with the abort reason, when the signal aborts mid-stream', async () => {
    let closed = false;
    const baseURL = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(event({ choices: [{ delta: { content: 'first' } }] }));
        res.on('close', () => (closed = true));
      }),
    );
    const controller = new AbortController();
    const { got, sink } = collect();
    sink.text = (delta) => {
      got.text += delta;
      controller.abort(new Error('stopped'));
    };
    await expect(ask(baseURL, sink, controller.signal)).rejects.toThrow('stopped');
    expect(got.text).toBe('first');
    await expect.poll(() => closed).toBe(true);
  });
});
