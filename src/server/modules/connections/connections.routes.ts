import {
  connectionIdParamsSchema,
  connectionListSchema,
  connectionSchema,
  connectionTestSchema,
  createConnectionBodySchema,
  modelListSchema,
  patchConnectionBodySchema,
} from '@shared/contracts/admin';
import { errorResponseSchema, messageResponseSchema } from '@shared/contracts/common';
import type { ModelCatalog } from '../../ai/model-catalog';
import { adminRoutes } from '../../plugins/admin-only';
import { signedInRoutes } from '../../plugins/signed-in';
import * as connections from './connections.service';

/** The admin console's AI connections; their API keys go in and never come out. */
export const connectionsRoutes = adminRoutes<{ deps: connections.ConnectionsDeps }>(async (app, { deps }) => {
  const tags = ['admin'];
  const errors = { 400: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
  app.get(
    '/admin/connections',
    {
      schema: {
        tags,
        summary: 'AI connections, the environment’s first (never their keys)',
        response: { 200: connectionListSchema },
      },
    },
    async () => connections.listConnections(deps),
  );
  app.post(
    '/admin/connections',
    {
      schema: {
        tags,
        summary: 'Add a connection; a private or loopback base URL needs allowPrivateAddress',
        body: createConnectionBodySchema,
        response: { 201: connectionSchema, 400: errorResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await connections.createConnection(deps, request.body)),
  );
  app.patch(
    '/admin/connections/:id',
    {
      schema: {
        tags,
        summary: 'Change a connection: name, base URL, key ("" or null removes it), enabled models',
        params: connectionIdParamsSchema,
        body: patchConnectionBodySchema,
        response: { 200: connectionSchema, ...errors },
      },
    },
    async (request) => connections.changeConnection(deps, request.params.id, request.body),
  );
  app.delete(
    '/admin/connections/:id',
    {
      schema: {
        tags,
        summary: 'Delete a connection; bots that used its models answer with the default',
        params: connectionIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => connections.removeConnection(deps, request.params.id),
  );
  app.post(
    '/admin/connections/:id/test',
    {
      schema: {
        tags,
        summary: 'Ask the connection’s server which models it offers',
        params: connectionIdParamsSchema,
        response: { 200: connectionTestSchema, ...errors },
      },
    },
    async (request) => connections.testConnection(deps, request.params.id),
  );
});

/** The models anyone signed in may pick for a bot. */
export const modelsRoutes = signedInRoutes<{ models: ModelCatalog }>(async (app, { models }) => {
  app.get(
    '/models',
    {
      schema: {
        tags: ['models'],
        summary: 'The enabled models and what Default means',
        response: { 200: modelListSchema },
      },
    },
    async () => connections.listModels(models),
  );
});
