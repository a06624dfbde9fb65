import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * CORS for the APIs called with an API key (`/v1`, `/mcp`), for the browser origins an operator lists in
 * API_CORS_ORIGINS; registered inside each API's prefix, so the app's own pages and `/api` stay same-origin.
 * An origin not listed gets no CORS header at all, and its preflight the 404 of a route that does not exist.
 * No credentials: these APIs take a key in `Authorization`, never the app's session.
 *
 * Helmet's Cross-Origin-Resource-Policy (same-origin) does not stand in the way: browsers apply it to no-cors
 * requests only, and a `fetch` from a listed origin is a CORS request.
 */
export const apiCorsPlugin = fp(async (api: FastifyInstance, { origins }: { origins: readonly string[] }) => {
  if (!origins.length) return;
  const allowed = new Set(origins);
  await api.register(cors, {
    // `false` for others: the plugin then adds nothing and leaves their preflight unanswered.
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'POST', 'DELETE'],
    // No `allowedHeaders`: the headers a preflight asks for are allowed (Authorization, Content-Type, MCP's
    // Mcp-Protocol-Version and Mcp-Session-Id, and whatever a client adds: the openai package's x-stainless-*).
    exposedHeaders: ['Mcp-Session-Id', 'Retry-After'],
    maxAge: 600,
  });
});
