import { z } from 'zod';
import {
  conversationSchema,
  createConversationBodySchema,
  createMessageBodySchema,
  messageSchema,
  renameConversationBodySchema,
} from '@shared/contracts/chat';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as chat from './chat.service';

/** Conversations and their messages; the routes that ask the model for a reply are in replies.routes.ts. */
export const conversationsRoutes = signedInRoutes<{ deps: chat.ChatDeps }>(async (app, { deps }) => {
  const tags = ['chat'];

  app.post(
    '/conversations',
    {
      schema: {
        tags,
        body: createConversationBodySchema,
        response: { 201: conversationSchema, 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await chat.createConversation(deps, currentUserId(request), request.body)),
  );

  app.get(
    '/bots/:id/conversations',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: z.array(conversationSchema), 404: errorResponseSchema },
      },
    },
    async (request) => chat.listConversations(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/conversations/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: conversationSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.getConversation(deps, currentUserId(request), request.params.id),
  );

  app.patch(
    '/conversations/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: renameConversationBodySchema,
        response: { 200: conversationSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.renameConversation(deps, currentUserId(request), request.params.id, request.body.title),
  );

  app.delete(
    '/conversations/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.deleteConversation(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/conversations/:id/messages',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: z.array(messageSchema), 404: errorResponseSchema },
      },
    },
    async (request) => chat.listMessages(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/messages',
    {
      schema: {
        tags,
        body: createMessageBodySchema,
        response: { 201: messageSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await chat.postMessage(deps, currentUserId(request), request.body.conversationId, request.body.content)),
  );
});
