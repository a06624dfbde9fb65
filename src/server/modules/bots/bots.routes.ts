import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@shared/contracts/auth';
import {
  botSchema,
  createBotBodySchema,
  generatePromptBodySchema,
  generatePromptResponseSchema,
  updateBotBodySchema,
} from '@shared/contracts/bots';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { generatePrompt } from '../../ai/tasks/generate-prompt';
import type { Ai } from '../../ai/providers';
import { sessionOf } from '../../plugins/auth-guard';
import type { RateLimit } from '../../plugins/rate-limit';
import * as bots from './bots.service';

export interface BotsRoutesOptions {
  deps: bots.BotsDeps & { ai: Ai };
  /** Requests per minute per address to POST /generate-prompt, which costs a model call each. */
  promptRateLimit: RateLimit;
}

export const botsRoutes: FastifyPluginAsyncZod<BotsRoutesOptions> = async (app, { deps, promptRateLimit }) => {
  const tags = ['bots'];
  const security = [{ bearer: [] }];
  const guarded = { onRequest: app.requireUser };
  const userId = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user.id;

  app.get('/bots', { ...guarded, schema: { tags, security, response: { 200: z.array(botSchema) } } }, async (request) =>
    bots.listBots(deps, userId(request)),
  );

  app.get(
    '/bots/:id',
    {
      ...guarded,
      schema: { tags, security, params: idParamsSchema, response: { 200: botSchema, 404: errorResponseSchema } },
    },
    async (request) => bots.getBot(deps, userId(request), request.params.id),
  );

  app.post(
    '/bots',
    { ...guarded, schema: { tags, security, body: createBotBodySchema, response: { 201: botSchema } } },
    async (request, reply) => reply.status(201).send(await bots.createBot(deps, userId(request), request.body)),
  );

  app.patch(
    '/bots/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: updateBotBodySchema,
        response: { 200: botSchema, 404: errorResponseSchema },
      },
    },
    async (request) => bots.updateBot(deps, userId(request), request.params.id, request.body),
  );

  app.delete(
    '/bots/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => bots.deleteBot(deps, userId(request), request.params.id),
  );

  app.post(
    '/generate-prompt',
    {
      ...guarded,
      config: { rateLimit: promptRateLimit },
      schema: { tags, security, body: generatePromptBodySchema, response: { 200: generatePromptResponseSchema } },
    },
    async (request) => generatePrompt({ ai: deps.ai, log: request.log }, request.body),
  );
};
