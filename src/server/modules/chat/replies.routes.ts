import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  botMessageBodySchema,
  botMessageResponseSchema,
  chatStatusSchema,
  stopResponseSchema,
  streamBodySchema,
} from '@shared/contracts/chat';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { AppError } from '../../lib/errors';
import { currentUserId } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as chat from './chat.service';
import { openSse } from './sse';

export interface RepliesRoutesOptions {
  deps: chat.ChatDeps;
  /** Model calls per user, shared by bot-message, stream and regenerate. */
  rateLimit: RateLimit;
}

const STREAM_DESCRIPTION =
  'Answers with server-sent events (text/event-stream): `user-message` (the saved user message; stream only), ' +
  '`delta` ({ text }) as the reply is written, then `done` (the saved reply, or null when stopped before any text) ' +
  'or `error` ({ message, messageId? }). Refusals (404, 409, 429) are plain JSON errors.';

const failureDetails = (outcome: { message: { id: number } | null }) =>
  outcome.message ? { messageId: outcome.message.id } : {};

/** Sends a reply as the events of STREAM_DESCRIPTION; the client going away stops the reply like POST /stop. */
async function streamReply(reply: FastifyReply, pending: chat.PendingReply) {
  const sse = openSse(reply);
  sse.gone.addEventListener('abort', pending.stop);
  try {
    if (pending.userMessage) sse.send({ event: 'user-message', data: pending.userMessage });
    const outcome = await pending.run((event) => sse.send(event));
    sse.send(
      outcome.status === 'failed'
        ? { event: 'error', data: { message: outcome.error, ...failureDetails(outcome) } }
        : { event: 'done', data: outcome.message },
    );
  } finally {
    sse.end();
  }
}

export const repliesRoutes = signedInRoutes<RepliesRoutesOptions>(async (app, { deps, rateLimit }) => {
  const tags = ['chat'];
  const replyDeps = (request: FastifyRequest): chat.ReplyDeps => ({ ...deps, log: request.log });
  // One budget per user (not per address) across the routes that call the model; a preHandler, so it runs
  // after the signed-in check.
  const limitModelCalls = limitPerUser(app, rateLimit, 'model-calls');

  // Running replies save what they have and end their responses, so closing the server does not wait on them.
  app.addHook('preClose', async () => deps.replies.stopAll());

  app.get('/chat/status', { schema: { tags, response: { 200: chatStatusSchema } } }, async () => ({
    offline: deps.ai.model === null,
    provider: deps.ai.provider,
    model: deps.ai.modelId,
  }));

  app.post(
    '/bot-message',
    {
      preHandler: limitModelCalls,
      schema: {
        tags,
        description:
          'Non-streaming reply (spec §7). Model failures answer 502 with a readable message; the user message is kept.',
        body: botMessageBodySchema,
        response: {
          200: botMessageResponseSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          502: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { conversationId, botId, userMessageContent } = request.body;
      const pending = await chat.beginReply(replyDeps(request), currentUserId(request), {
        conversationId,
        botId,
        target: { kind: 'message', content: userMessageContent, reuseIfLatest: true },
      });
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) pending.stop();
      });
      const outcome = await pending.run(() => {});
      if (outcome.status === 'failed') throw new AppError('UPSTREAM', outcome.error, failureDetails(outcome));
      return { botResponse: outcome.message?.content ?? '', message: outcome.message };
    },
  );

  app.post(
    '/conversations/:id/stream',
    {
      preHandler: limitModelCalls,
      schema: {
        tags,
        description: STREAM_DESCRIPTION,
        params: idParamsSchema,
        body: streamBodySchema,
        response: { 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const pending = await chat.beginReply(replyDeps(request), currentUserId(request), {
        conversationId: request.params.id,
        target: { kind: 'message', content: request.body.content },
      });
      await streamReply(reply, pending);
    },
  );

  app.post(
    '/conversations/:id/regenerate',
    {
      preHandler: limitModelCalls,
      schema: {
        tags,
        description: `Writes a new reply to the last user message; the previous reply is replaced when the new one is saved. ${STREAM_DESCRIPTION}`,
        params: idParamsSchema,
        response: { 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const pending = await chat.beginReply(replyDeps(request), currentUserId(request), {
        conversationId: request.params.id,
        target: { kind: 'regenerate' },
      });
      await streamReply(reply, pending);
    },
  );

  app.post(
    '/conversations/:id/stop',
    {
      schema: {
        tags,
        params: idParamsSchema,
        response: { 200: stopResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => chat.stopReply(deps, currentUserId(request), request.params.id),
  );
});
