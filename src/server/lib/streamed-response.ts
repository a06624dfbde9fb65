import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/**
 * Takes the response over from Fastify, keeping the headers set by hooks (security headers, CORS, rate-limit
 * counts), which hijacking would drop, for a writer that sends its own status and body (an MCP transport). The
 * connection stays open for the client's next request (no new connection, or TLS handshake, per stream), except
 * once the server is closing: a stream that ends then would leave an idle connection that holds the close for the
 * keep-alive timeout.
 */
export function hijackResponse(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  const socket = res.socket;
  res.once('finish', () => {
    if (socket && !(socket as Socket & { server?: Server }).server?.listening) socket.end();
  });
  return res;
}

/** `hijackResponse` for a stream written by hand (server-sent events, NDJSON): status 200 and `headers` at once. */
export function takeOverResponse(reply: FastifyReply, headers: OutgoingHttpHeaders): ServerResponse {
  return hijackResponse(reply).writeHead(200, headers);
}
