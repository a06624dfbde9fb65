import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import {
  mcpServerCreateSchema,
  mcpServerListSchema,
  mcpServerSchema,
  mcpServerUpdateSchema,
} from '@shared/contracts/mcp-servers';
import type { FastifyRequest } from 'fastify';
import { sessionOf } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as mcp from './mcp-servers.service';

const viewerOf = (request: FastifyRequest): mcp.Viewer => {
  const { user } = sessionOf(request);
  return { id: user.id, role: user.role };
};

/** Settings → Tools: a person's MCP servers and the ones for everyone; credentials go in and never come out. */
export const mcpServersRoutes = signedInRoutes<{ deps: mcp.McpServers }>(async (app, { deps }) => {
  const tags = ['mcp servers'];
  const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
  app.get(
    '/mcp-servers',
    {
      schema: {
        tags,
        summary: 'Your MCP servers and the ones added for everyone, with their tools (never their credentials)',
        response: { 200: mcpServerListSchema },
      },
    },
    async (request) => mcp.listServers(deps, viewerOf(request)),
  );
  app.post(
    '/mcp-servers',
    {
      schema: {
        tags,
        summary:
          'Add an MCP server; Botty connects and lists its tools (a server it cannot reach is saved with the error)',
        body: mcpServerCreateSchema,
        response: { 201: mcpServerSchema, 400: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await mcp.addServer(deps, viewerOf(request), request.body)),
  );
  app.patch(
    '/mcp-servers/:id',
    {
      schema: {
        tags,
        summary: 'Change an MCP server (null removes the bearer token or headers); its tools are listed again',
        params: idParamsSchema,
        body: mcpServerUpdateSchema,
        response: { 200: mcpServerSchema, ...errors },
      },
    },
    async (request) => mcp.changeServer(deps, viewerOf(request), request.params.id, request.body),
  );
  app.delete(
    '/mcp-servers/:id',
    {
      schema: {
        tags,
        summary: 'Delete an MCP server; bots that used its tools no longer offer them',
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => mcp.removeServer(deps, viewerOf(request), request.params.id),
  );
  app.post(
    '/mcp-servers/:id/refresh',
    {
      schema: {
        tags,
        summary: 'Connect again and list the server’s tools',
        params: idParamsSchema,
        response: { 200: mcpServerSchema, 404: errorResponseSchema },
      },
    },
    async (request) => mcp.refreshServer(deps, viewerOf(request), request.params.id),
  );
});
