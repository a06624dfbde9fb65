import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@shared/contracts/auth';
import {
  conversationSchema,
  createConversationBodySchema,
  createMessageBodySchema,
  messageSchema,
  renameConversationBodySchema,
} from '@shared/contracts/chat';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { sessionOf } from '../../plugins/auth-guard';
import * as chat from './chat.service';

/** Conversations and their messages; the routes that ask the model for a reply are in replies.routes.ts. */
export const conversationsRoutes: FastifyPluginAsyncZod<{ deps: chat.ChatDeps }> = async (app, { deps }) => {
  const tags = ['chat'];
  const security = [{ bearer: [] }];
  const guarded = { onRequest: app.requireUser };
  const userId = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user.id;

  app.post(
    '/conversations',
    {
      ...guarded,
      schema: {
        tags,
        security,
        body: createConversationBodySchema,
        response: { 201: conversationSchema, 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await chat.createConversation(deps, userId(request), request.body)),
  );

  app.get(
    '/bots/:id/conversations',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        response: { 200: z.array(conversationSchema), 404: errorResponseSchema },
      },
    },
    async (request) => chat.listConversations(deps, userId(request), request.params.id),
  );

  app.get(
    '/conversations/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        response: { 200: conversationSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.getConversation(deps, userId(request), request.params.id),
  );

  app.patch(
    '/conversations/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: renameConversationBodySchema,
        response: { 200: conversationSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.renameConversation(deps, userId(request), request.params.id, request.body.title),
  );

  app.delete(
    '/conversations/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.deleteConversation(deps, userId(request), request.params.id),
  );

  app.get(
    '/conversations/:id/messages',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        response: { 200: z.array(messageSchema), 404: errorResponseSchema },
      },
    },
    async (request) => chat.listMessages(deps, userId(request), request.params.id),
  );

  app.post(
    '/messages',
    {
      ...guarded,
      schema: {
        tags,
        security,
        body: createMessageBodySchema,
        response: { 201: messageSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await chat.postMessage(deps, userId(request), request.body.conversationId, request.body.content)),
  );
};
