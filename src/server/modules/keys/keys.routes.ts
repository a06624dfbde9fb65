import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { apiKeyListSchema, createApiKeyBodySchema, createdApiKeySchema } from '@shared/contracts/keys';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as keys from './keys.service';

export const keysRoutes = signedInRoutes<{ deps: keys.KeysDeps }>(async (app, { deps }) => {
  const tags = ['api keys'];
  app.get(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Your API keys for the OpenAI-compatible API (never the keys themselves)',
        response: { 200: apiKeyListSchema },
      },
    },
    async (request) => keys.listKeys(deps, currentUserId(request)),
  );
  app.post(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Create an API key for one of your bots or all of them; the key is in this answer only',
        body: createApiKeyBodySchema,
        response: { 201: createdApiKeySchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await keys.createKey(deps, currentUserId(request), request.body)),
  );
  app.delete(
    '/keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key, with immediate effect',
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => keys.revokeKey(deps, currentUserId(request), request.params.id),
  );
});
