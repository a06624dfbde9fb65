import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import {
  shareBodySchema,
  shareLinkSchema,
  shareStatusSchema,
  shareTokenParamsSchema,
  snapshotSchema,
} from '@shared/contracts/shares';
import { currentUserId } from '../../plugins/auth-guard';
import type { RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as shares from './shares.service';

const tags = ['shares'];

const ownerRoutes = signedInRoutes<{ deps: shares.SharesDeps }>(async (app, { deps }) => {
  app.post(
    '/conversations/:id/share',
    {
      schema: {
        tags,
        summary: 'Share a read-only snapshot of the conversation as it is now; replaces an earlier link',
        params: idParamsSchema,
        body: shareBodySchema,
        response: {
          201: shareLinkSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await shares.shareConversation(deps, currentUserId(request), request.params.id, request.body)),
  );
  app.get(
    '/conversations/:id/share',
    {
      schema: {
        tags,
        summary: 'Whether the conversation has a live share link (the link itself is shown only when made)',
        params: idParamsSchema,
        response: { 200: shareStatusSchema, 404: errorResponseSchema },
      },
    },
    async (request) => shares.shareStatus(deps, currentUserId(request), request.params.id),
  );
  app.delete(
    '/conversations/:id/share',
    {
      schema: {
        tags,
        summary: 'Revoke the conversation’s share link, with immediate effect',
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => shares.revokeShare(deps, currentUserId(request), request.params.id),
  );
});

export const sharesRoutes: FastifyPluginAsyncZod<{ deps: shares.SharesDeps; rateLimit: RateLimit }> = async (
  app,
  { deps, rateLimit },
) => {
  await app.register(ownerRoutes, { deps });
  app.get(
    '/shares/:token',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'A shared conversation snapshot, for anyone with the link (no sign-in)',
        description:
          'Answers 404 for a link that does not exist, was revoked (or replaced by a newer one) or has expired. Rate limited per address.',
        params: shareTokenParamsSchema,
        response: { 200: snapshotSchema, 404: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      // Revocation must take effect at once, and the snapshot is not for search engines.
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      return shares.openSnapshot(deps, request.params.token);
    },
  );
};
