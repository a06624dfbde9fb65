import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ChatStreamEvent,
  botMessageBodySchema,
  botMessageResponseSchema,
  chatStatusSchema,
  editMessageBodySchema,
  stopResponseSchema,
  streamBodySchema,
  toolApprovalResponseSchema,
} from '@shared/contracts/chat';
import { toolApprovalBodySchema } from '@shared/contracts/mcp-servers';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { currentUserId } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import type { ChatDeps, ReplyDeps } from './chat-deps';
import { getConversation } from './conversations.service';
import { conversationOfEdit } from './messages.service';
import * as replies from './replies.service';
import { decideToolCall } from './tool-approvals.service';
import { parseReplyEventId } from '../replies/reply-events';
import { openSse, type SendOptions, type SseEvent } from './sse';

export interface RepliesRoutesOptions {
  deps: ChatDeps;
  /** Model calls per user, shared by bot-message, stream and regenerate. */
  rateLimit: RateLimit;
}

const STREAM_DESCRIPTION =
  'Answers with server-sent events (text/event-stream), each with an `id:`: `user-message` (the saved user ' +
  'message; stream only), `start` ({ messageId }), `sources` and `step` when the reply uses any, `delta` ({ text }) ' +
  'as the reply is written, then `done` (the saved reply, or null when stopped before any text) or `error` ' +
  '({ message, messageId? }). Refusals (404, 409, 429) are plain JSON errors. A client that loses the stream ' +
  'keeps the reply running and resumes it with GET /api/conversations/{id}/stream and `Last-Event-ID`.';

const resumeQuerySchema = z.object({ after: z.string().max(100).optional() });

const failureDetails = (outcome: { message: { id: number } | null }) =>
  outcome.message ? { messageId: outcome.message.id } : {};

/** The reply's text may leave with the text after it (TEXT_GAP_MS); its other events leave at once. */
const textOf = (event: ChatStreamEvent): SendOptions => ({ text: event.event === 'delta' });

/**
 * Sends a reply as the events of STREAM_DESCRIPTION, recording each in the reply event log first so that a
 * client that lost this response (a blip, a reload, another instance behind the balancer) can resume it. The
 * reply goes on when the client goes away: only Stop ends it early.
 */
export async function streamReply(
  reply: FastifyReply,
  deps: ChatDeps,
  conversationId: number,
  pending: replies.PendingReply,
  /** What this client is sent of each event; the log keeps them whole. */
  present: (event: ChatStreamEvent) => SseEvent = (event) => event,
) {
  const sse = openSse(reply);
  const log = deps.replyEvents.open(conversationId, String(pending.replyId));
  const send = (event: ChatStreamEvent) => sse.send(present(event), log.append(event), textOf(event));
  try {
    if (pending.userMessage) send({ event: 'user-message', data: pending.userMessage });
    const outcome = await pending.run(send);
    send(
      outcome.status === 'failed'
        ? { event: 'error', data: { message: outcome.error, ...failureDetails(outcome) } }
        : { event: 'done', data: outcome.message },
    );
  } finally {
    log.end();
    sse.end();
  }
}

export const repliesRoutes = signedInRoutes<RepliesRoutesOptions>(async (app, { deps, rateLimit }) => {
  const tags = ['chat'];
  const replyDeps = (request: FastifyRequest): ReplyDeps => ({ ...deps, log: request.log });
  // One budget per user (not per address) across the routes that call the model; a preHandler, so it runs
  // after the signed-in check.
  const limitModelCalls = limitPerUser(app, rateLimit, 'model-calls');

  app.get('/chat/status', { schema: { tags, response: { 200: chatStatusSchema } } }, async () => {
    const { ai } = await deps.models.resolve('chat');
    return { offline: ai.model === null, provider: ai.provider, model: ai.modelId };
  });

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
      const pending = await replies.beginReply(replyDeps(request), currentUserId(request), {
        conversationId,
        botId,
        target: { kind: 'message', content: userMessageContent, reuseIfLatest: true },
        streamed: false,
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
      const pending = await replies.beginReply(replyDeps(request), currentUserId(request), {
        conversationId: request.params.id,
        target: { kind: 'message', content: request.body.content, fileIds: request.body.fileIds },
      });
      await streamReply(reply, deps, request.params.id, pending);
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
      const pending = await replies.beginReply(replyDeps(request), currentUserId(request), {
        conversationId: request.params.id,
        target: { kind: 'regenerate' },
      });
      await streamReply(reply, deps, request.params.id, pending);
    },
  );

  app.post(
    '/messages/:id/edit',
    {
      preHandler: limitModelCalls,
      schema: {
        tags,
        description:
          'Edits a user message: saves a new version of it (with its files) in its place on the active branch and ' +
          'writes a reply to it. The replaced turns stay, reachable through the message `versions` and ' +
          `POST /api/messages/{id}/activate; the model sees only the active branch. ${STREAM_DESCRIPTION}`,
        params: idParamsSchema,
        body: editMessageBodySchema,
        response: { 400: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      const conversationId = await conversationOfEdit(deps, userId, request.params.id);
      const pending = await replies.beginReply(replyDeps(request), userId, {
        conversationId,
        target: { kind: 'edit', messageId: request.params.id, content: request.body.content },
      });
      await streamReply(reply, deps, conversationId, pending);
    },
  );

  app.get(
    '/conversations/:id/stream',
    {
      schema: {
        tags,
        description:
          "Resumes the conversation's running (or just finished) reply: the events after `Last-Event-ID` (or the " +
          '`after` query parameter; all of them without either), then the live ones until `done` or `error`. ' +
          'A reply whose server went away ends with `done` carrying the saved message, status `interrupted`. ' +
          '204 when no reply is running or recently finished.',
        params: idParamsSchema,
        querystring: resumeQuerySchema,
        response: { 204: z.null(), 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const conversationId = request.params.id;
      await getConversation(deps, currentUserId(request), conversationId);
      const after = request.headers['last-event-id'] ?? request.query.after;
      if (after !== undefined && (typeof after !== 'string' || !parseReplyEventId(after))) {
        throw new AppError('BAD_REQUEST', 'Last-Event-ID is not an event id of this stream');
      }
      const latest = await deps.replyEvents.current(conversationId);
      if (!latest) return reply.status(204).send(null);
      const replyId = after === undefined ? latest.replyId : parseReplyEventId(after)!.replyId;
      // Its instance died: the saved message ends it now, even when that instance could not record the end.
      const interrupted = await replies.interruptedReply(deps, conversationId, Number(replyId));
      const sse = openSse(reply);
      if (interrupted) {
        sse.send({ event: 'done', data: interrupted });
        return sse.end();
      }
      try {
        for await (const { id, event } of deps.replyEvents.follow(conversationId, { after, signal: sse.gone })) {
          sse.send(event, id, textOf(event));
        }
      } finally {
        sse.end();
      }
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
    async (request) => replies.stopReply(deps, currentUserId(request), request.params.id),
  );

  app.post(
    '/conversations/:id/tool-approvals',
    {
      schema: {
        tags,
        description:
          "Answers a tool call waiting in the conversation's reply (its `step`, status `awaiting_approval`, names " +
          'the `callId`): `approve` runs it, `deny` does not; `always` keeps the answer for that tool for the rest of ' +
          'the conversation. The reply goes on with the answer on whichever server writes it. 404 when no such call ' +
          'waited, 409 when it was answered already (or timed out, or the reply was stopped).',
        params: idParamsSchema,
        body: toolApprovalBodySchema,
        response: {
          200: toolApprovalResponseSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => decideToolCall(deps, currentUserId(request), request.params.id, request.body),
  );
});
