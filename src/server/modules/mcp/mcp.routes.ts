import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { hijackResponse } from '../../lib/streamed-response';
import { bearerToken } from '../../plugins/auth-guard';
import { limitBy, type RateLimit } from '../../plugins/rate-limit';
import type { ApiKeyRow } from '../keys/keys.repository';
import { authenticateMcpKey, botsServer, type McpDeps } from './mcp.service';
import { loadServerSdk } from './server-sdk';

const INVALID_KEY =
  'Invalid API key: it is unknown, revoked or expired. Create one in Botty under Settings → API keys.';

/** The key each request passed the check with; a request-scoped value, gone with the request. */
const keys = new WeakMap<FastifyRequest, ApiKeyRow>();
const keyOf = (request: FastifyRequest) => {
  const key = keys.get(request);
  if (!key) throw new AppError('UNAUTHENTICATED', INVALID_KEY);
  return key;
};

/** JSON-RPC's shape for an error outside any request (`id: null`), as the SDK's own examples answer. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** The SDK's answer to GET and DELETE on a stateless server: no session, so no stream to resume or end. */
function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply) {
  return reply.status(405).header('allow', 'POST').send(rpcError(-32000, 'Method not allowed.'));
}

/**
 * `/mcp`: Botty as an MCP server (Streamable HTTP, stateless) for any MCP client with an API key. Each bot the key
 * reaches is a tool `ask_<bot name>`; the key's scope and rate limit are those of `/v1` (decision 0039).
 */
export const mcpRoutes: FastifyPluginAsyncZod<{ deps: McpDeps; rateLimit: RateLimit }> = async (
  app,
  { deps, rateLimit },
) => {
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request);
    const key = token ? await authenticateMcpKey(deps, token) : null;
    if (!key) {
      reply.header('www-authenticate', 'Bearer realm="botty"');
      throw new AppError('UNAUTHENTICATED', INVALID_KEY);
    }
    keys.set(request, key);
  });
  // Per key, like /v1 (RATE_LIMIT_API_KEY_PER_MINUTE), whichever bot the call asks.
  const perKey = limitBy(app, rateLimit, 'api-key', (request) => String(keyOf(request).id));

  app.post(
    '/',
    {
      preHandler: perKey,
      schema: {
        tags: ['MCP'],
        summary: 'Model Context Protocol (Streamable HTTP, stateless): each bot the API key reaches is a tool',
        description:
          'Point an MCP client at `{Botty URL}/mcp` with the header `Authorization: Bearer <API key>`. `tools/list` ' +
          'lists one tool `ask_<bot name>` per bot the key reaches; `tools/call` with `{ "question": "…" }` answers ' +
          'with the bot’s reply and its sources. Nothing of the exchange is stored; usage is counted as for `/v1`.',
        body: z.unknown().describe('A JSON-RPC 2.0 message of the Model Context Protocol, or a batch of them'),
      },
    },
    async (request, reply) => {
      const server = await botsServer(deps, keyOf(request), request.log);
      // Stateless: a server and transport per request, no session id; JSON or an event stream as the SDK answers.
      const { StreamableHTTPServerTransport } = await loadServerSdk();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const res = hijackResponse(reply);
      // Closing the server aborts a tool call still running when the client goes away.
      res.on('close', () => void server.close());
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, res, request.body);
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(rpcError(-32603, 'Internal server error')));
        }
      }
    },
  );
  app.get('/', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/', { schema: { hide: true } }, methodNotAllowed);
};
