import { updateBotSharingBodySchema } from '@shared/contracts/bot-sharing';
import { botSchema } from '@shared/contracts/bots';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  explorePageSchema,
  exploreQuerySchema,
  sharedBotSchema,
  shareLinkSchema,
  shareSlugParamsSchema,
} from '@shared/contracts/shared-bots';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import type { BotsDeps } from './bots.service';
import * as sharing from './sharing.service';

export interface SharingRoutesOptions {
  deps: BotsDeps;
}

/** Bot sharing (issue 12, decision 0017): the owner's settings and link, and what signed-in visitors see. */
export const sharingRoutes = signedInRoutes<SharingRoutesOptions>(async (app, { deps }) => {
  const tags = ['sharing'];
  const notFound = { 404: errorResponseSchema };

  app.patch(
    '/bots/:id/sharing',
    {
      schema: {
        tags,
        description: 'The owner changes who may use the bot and where it may be embedded; only the fields sent change.',
        params: idParamsSchema,
        body: updateBotSharingBodySchema,
        response: { 200: botSchema, ...notFound },
      },
    },
    async (request) => sharing.updateSharing(deps, currentUserId(request), request.params.id, request.body),
  );

  app.post(
    '/bots/:id/share-link',
    {
      schema: {
        tags,
        description:
          'Makes a new link for a bot set to link or public; the old one stops at once. The slug is shown only in this answer.',
        params: idParamsSchema,
        response: { 201: shareLinkSchema, ...notFound, 409: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sharing.createShareLink(deps, currentUserId(request), request.params.id)),
  );

  app.get(
    '/shared/bots/:slug',
    {
      schema: {
        tags,
        description: 'A bot by its link; opening it lets the caller chat with the bot.',
        params: shareSlugParamsSchema,
        response: { 200: sharedBotSchema, ...notFound },
      },
    },
    async (request) => sharing.openSharedBot(deps, currentUserId(request), request.params.slug),
  );

  app.post(
    '/shared/bots/:slug/copy',
    {
      schema: {
        tags,
        description: 'Add to my botties: a private copy of the bot for the caller.',
        params: shareSlugParamsSchema,
        response: { 201: botSchema, ...notFound },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sharing.copySharedBot(deps, currentUserId(request), request.params.slug)),
  );

  app.get(
    '/explore/bots',
    {
      schema: {
        tags,
        description: 'Public bots, most recently changed first, searched by name and description.',
        querystring: exploreQuerySchema,
        response: { 200: explorePageSchema, 400: errorResponseSchema },
      },
    },
    async (request) => sharing.explorePublicBots(deps, currentUserId(request), request.query),
  );

  app.get(
    '/explore/bots/:id',
    {
      schema: {
        tags,
        description: 'A bot the caller may chat with (public, their own, or a link they opened), as visitors see it.',
        params: idParamsSchema,
        response: { 200: sharedBotSchema, ...notFound },
      },
    },
    async (request) => sharing.getUsableBot(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/explore/bots/:id/copy',
    {
      schema: {
        tags,
        description: 'Add to my botties from Explore or a shared chat: a private copy of a bot the caller may use.',
        params: idParamsSchema,
        response: { 201: botSchema, ...notFound },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sharing.copyUsableBot(deps, currentUserId(request), request.params.id)),
  );
});
