import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { sendJson } from './fake-server-base';

/**
 * A real MCP server (the official SDK's `McpServer`) on loopback, for tests of Botty's MCP client:
 *
 * - `streamableUrl` (`/mcp`): Streamable HTTP, stateless (a fresh server per request, as the SDK's examples do);
 * - `sseUrl` (`/sse`, posting to `/messages`): the older HTTP+SSE transport.
 *
 * Its tools:
 * - `lookup_fact` ({ topic }), read-only: a sentence about the topic and a `resource_link` titled
 *   `Fact sheet: <topic>` at `https://facts.example/<topic>` (a source to cite). Topic `long` answers 30,000
 *   characters; topic `unknown` answers an `isError` result.
 * - `delete_record` ({ id }), destructive (readOnlyHint false, destructiveHint true): counted in `deleteCalls`.
 * - `wait` ({ ms }), read-only: answers after `ms` milliseconds (for timeouts).
 *
 * `bearerToken` makes every request without `Authorization: Bearer <token>` answer 401. Every request's method,
 * path and headers are recorded in `requests`.
 */
export interface FakeMcpServerOptions {
  bearerToken?: string;
}

export interface FakeMcpRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export const FACT_URL = (topic: string) => `https://facts.example/${encodeURIComponent(topic)}`;

export async function startFakeMcpServer(options: FakeMcpServerOptions = {}) {
  const requests: FakeMcpRequest[] = [];
  const calls: { tool: string; args: unknown }[] = [];
  const sseSessions = new Map<string, SSEServerTransport>();
  let deleteCalls = 0;

  function mcpServer() {
    const server = new McpServer({ name: 'fake-facts', version: '1.0.0' });
    server.registerTool(
      'lookup_fact',
      {
        title: 'Look up a fact',
        description: 'Finds a short fact about a topic, with the fact sheet it comes from.',
        inputSchema: { topic: z.string().describe('What to look up') },
        annotations: { readOnlyHint: true },
      },
      ({ topic }) => {
        calls.push({ tool: 'lookup_fact', args: { topic } });
        if (topic === 'unknown') {
          return { isError: true, content: [{ type: 'text', text: 'No fact is known about this topic.' }] };
        }
        const text = topic === 'long' ? 'x'.repeat(30_000) : `The fact about ${topic}: it is well documented.`;
        return {
          content: [
            { type: 'text', text },
            {
              type: 'resource_link',
              uri: FACT_URL(topic),
              name: topic,
              title: `Fact sheet: ${topic}`,
              description: `Everything known about ${topic}.`,
            },
          ],
        };
      },
    );
    server.registerTool(
      'delete_record',
      {
        description: 'Deletes a record for good.',
        inputSchema: { id: z.string().describe('The record to delete') },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      ({ id }) => {
        deleteCalls += 1;
        calls.push({ tool: 'delete_record', args: { id } });
        return { content: [{ type: 'text', text: `Deleted record ${id}.` }] };
      },
    );
    server.registerTool(
      'wait',
      {
        description: 'Waits, then says so.',
        inputSchema: { ms: z.number().int().min(0) },
        annotations: { readOnlyHint: true },
      },
      async ({ ms }, extra) => {
        calls.push({ tool: 'wait', args: { ms } });
        await sleep(ms, undefined, { signal: extra.signal }).catch(() => {});
        return { content: [{ type: 'text', text: `Waited ${ms} ms.` }] };
      },
    );
    return server;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) {
    if (options.bearerToken && req.headers.authorization !== `Bearer ${options.bearerToken}`) {
      return sendJson(res, 401, { error: 'unauthorized' });
    }
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
    if (path === '/mcp') {
      const server = mcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      return mcpServer().connect(transport);
    }
    if (path === '/messages' && req.method === 'POST') {
      const sessionId = new URL(req.url ?? '', 'http://x').searchParams.get('sessionId') ?? '';
      const transport = sseSessions.get(sessionId);
      if (!transport) return sendJson(res, 404, { error: 'no such session' });
      return transport.handlePostMessage(req, res, body);
    }
    sendJson(res, 404, { error: `no route ${req.method} ${path}` });
  }

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers });
      handle(req, res, path, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: String(err) });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    /** The server's origin. */
    url,
    /** Where a Streamable HTTP client connects. */
    streamableUrl: `${url}/mcp`,
    /** Where an HTTP+SSE client connects. */
    sseUrl: `${url}/sse`,
    requests,
    /** Every tool call, oldest first. */
    calls,
    /** How many times `delete_record` ran. */
    get deleteCalls() {
      return deleteCalls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

export type FakeMcpServer = Awaited<ReturnType<typeof startFakeMcpServer>>;
