import { z } from 'zod';
import {
  conversationPageQuerySchema,
  conversationPageSchema,
  conversationSchema,
  conversationSearchQuerySchema,
  conversationSearchResponseSchema,
  conversationSummarySchema,
  createConversationBodySchema,
  createMessageBodySchema,
  messageSchema,
  messagesQuerySchema,
  activateQuerySchema,
  renameConversationBodySchema,
} from '@shared/contracts/chat';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import type { ChatDeps } from './chat-deps';
import * as conversations from './conversations.service';
import * as messages from './messages.service';

/** Conversations and their messages; the routes that ask the model for a reply are in replies.routes.ts. */
export const conversationsRoutes = signedInRoutes<{ deps: ChatDeps }>(async (app, { deps }) => {
  const tags = ['chat'];

  app.post(
    '/conversations',
    {
      schema: {
        tags,
        description:
          'Opens a conversation with the bot: its most recent one while that has no message yet (200), else a new ' +
          "one (201) titled `Conversation with {name}` unless `title` names it. The 'chat started' activity is " +
          'recorded when its first message is sent.',
        body: createConversationBodySchema,
        response: {
          200: conversationSchema,
          201: conversationSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { conversation, created } = await conversations.openConversation(
        deps,
        currentUserId(request),
        request.body,
      );
      return reply.status(created ? 201 : 200).send(conversation);
    },
  );

  app.get(
    '/conversations',
    {
      schema: {
        tags,
        description:
          "The caller's conversations that have a message, across bots, most recently active first, with their bot. " +
          'Pass `nextCursor` back as `cursor` for the next page.',
        querystring: conversationPageQuerySchema,
        response: { 200: conversationPageSchema, 400: errorResponseSchema },
      },
    },
    async (request) => conversations.listConversationPage(deps, currentUserId(request), request.query),
  );

  app.get(
    '/conversations/search',
    {
      schema: {
        tags,
        description:
          "Full-text search (SQLite FTS5, PostgreSQL tsvector) of the caller's conversation titles and messages on " +
          'their active branches; all words must match, the last as a prefix. One result per conversation, most ' +
          'recently active first, with the newest matching message and a highlighted snippet.',
        querystring: conversationSearchQuerySchema,
        response: { 200: conversationSearchResponseSchema, 400: errorResponseSchema },
      },
    },
    async (request) => conversations.searchConversations(deps, currentUserId(request), request.query),
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
    async (request) => conversations.listConversations(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/conversations/:id',
    {
      schema: {
        tags,
        description:
          "One of the caller's conversations with its bot's id, name and icon, also once the bot is no longer " +
          'shared with them (the conversation is then read-only).',
        params: idParamsSchema,
        response: { 200: conversationSummarySchema, 404: errorResponseSchema },
      },
    },
    async (request) => conversations.getConversation(deps, currentUserId(request), request.params.id),
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
    async (request) =>
      conversations.renameConversation(deps, currentUserId(request), request.params.id, request.body.title),
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
    async (request) => conversations.deleteConversation(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/conversations/:id/messages',
    {
      schema: {
        tags,
        description:
          'The active branch of the conversation, oldest first: whole without `cursor` and `limit`; with `limit`, the ' +
          'newest `limit` messages before message `cursor` (next page: the first message id as `cursor`; a shorter ' +
          'page is the beginning). User messages list their versions (`versions`).',
        params: idParamsSchema,
        querystring: messagesQuerySchema,
        response: { 200: z.array(messageSchema), 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => messages.listMessages(deps, currentUserId(request), request.params.id, request.query),
  );

  app.post(
    '/messages/:id/activate',
    {
      schema: {
        tags,
        description:
          'The version switcher: makes the branch through this message (its earlier turns, then its most recent ' +
          'replies) the active one and answers the active branch: its newest `limit` messages, oldest first, as ' +
          'GET /api/conversations/{id}/messages?limit= would, or all of them without `limit`. 409 while a reply ' +
          'is being written.',
        params: idParamsSchema,
        querystring: activateQuerySchema,
        response: { 200: z.array(messageSchema), 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request) => messages.activateMessage(deps, currentUserId(request), request.params.id, request.query.limit),
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
        .send(
          await messages.postMessage(deps, currentUserId(request), request.body.conversationId, request.body.content),
        ),
  );
});
