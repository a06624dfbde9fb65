import { z } from 'zod';
import {
  botSchema,
  createBotBodySchema,
  generatePromptBodySchema,
  generatePromptResponseSchema,
  updateBotBodySchema,
} from '@shared/contracts/bots';
import { botVersionSchema, botVersionSummarySchema, versionParamsSchema } from '@shared/contracts/bot-versions';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { generatePrompt } from '../../ai/tasks/generate-prompt';
import { requireEnabledModel, type ModelCatalog } from '../../ai/model-catalog';
import { abortedWhenGone } from '../../lib/client-gone';
import { currentUserId } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as bots from './bots.service';
import * as versions from './versions.service';

export interface BotsRoutesOptions {
  /** Which models a bot may be set to; prompt generation's model. */
  deps: bots.BotsDeps & { models: ModelCatalog };
  /** Requests per minute per user to POST /generate-prompt, which costs a model call each. */
  promptRateLimit: RateLimit;
}

export const botsRoutes = signedInRoutes<BotsRoutesOptions>(async (app, { deps, promptRateLimit }) => {
  const tags = ['bots'];

  app.get('/bots', { schema: { tags, response: { 200: z.array(botSchema) } } }, async (request) =>
    bots.listBots(deps, currentUserId(request)),
  );

  app.get(
    '/bots/:id',
    {
      schema: { tags, params: idParamsSchema, response: { 200: botSchema, 404: errorResponseSchema } },
    },
    async (request) => bots.getBot(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/bots',
    { schema: { tags, body: createBotBodySchema, response: { 201: botSchema } } },
    async (request, reply) => {
      await requireEnabledModel(deps.models, request.body.config.model);
      return reply.status(201).send(await bots.createBot(deps, currentUserId(request), request.body));
    },
  );

  app.patch(
    '/bots/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: updateBotBodySchema,
        response: { 200: botSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      // Only a model being chosen now: a bot whose model was disabled since keeps it (and answers with the default).
      await requireEnabledModel(deps.models, request.body.config?.model);
      return bots.updateBot(deps, currentUserId(request), request.params.id, request.body);
    },
  );

  app.delete(
    '/bots/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => bots.deleteBot(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/generate-prompt',
    {
      preHandler: limitPerUser(app, promptRateLimit, 'prompt-generation'),
      schema: { tags, body: generatePromptBodySchema, response: { 200: generatePromptResponseSchema } },
    },
    async (request, reply) => {
      const { ai } = await deps.models.resolve('promptGeneration');
      return generatePrompt({ ai, log: request.log }, request.body, { signal: abortedWhenGone(reply) });
    },
  );

  app.get(
    '/bots/:id/versions',
    {
      schema: {
        tags,
        description: "The bot's versions, newest first: number, time and the fields that changed.",
        params: idParamsSchema,
        response: { 200: z.array(botVersionSummarySchema), 404: errorResponseSchema },
      },
    },
    async (request) => versions.listVersions(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/bots/:id/versions/:n',
    {
      schema: {
        tags,
        description: 'One version with the full snapshot of the prompt and settings it had.',
        params: versionParamsSchema,
        response: { 200: botVersionSchema, 404: errorResponseSchema },
      },
    },
    async (request) => versions.getVersion(deps, currentUserId(request), request.params.id, request.params.n),
  );

  app.post(
    '/bots/:id/versions/:n/restore',
    {
      schema: {
        tags,
        description: 'Makes version n current again by writing a new version equal to it; answers the bot.',
        params: versionParamsSchema,
        response: { 200: botSchema, 404: errorResponseSchema },
      },
    },
    async (request) => versions.restoreVersion(deps, currentUserId(request), request.params.id, request.params.n),
  );
});
