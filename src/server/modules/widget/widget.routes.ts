import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '@shared/contracts/chat';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  updateWidgetAppearanceBodySchema,
  widgetAppearanceSchema,
  widgetConfigSchema,
  widgetConversationParamsSchema,
  widgetConversationsSchema,
  widgetMessagesSchema,
  widgetPageQuerySchema,
  widgetParamsSchema,
  widgetReplyBodySchema,
} from '@shared/contracts/widget';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER, WIDGET_MESSAGES } from '@shared/chat/widget-protocol';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { currentUserId } from '../../plugins/auth-guard';
import { limitBy, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import type { ChatDeps } from '../chat/chat-deps';
import { streamReply } from '../chat/replies.routes';
import { refusalPage, widgetPage, widgetPagePolicy } from './widget-page';
import * as widget from './widget.service';

export interface WidgetRoutesOptions {
  deps: ChatDeps;
  /** Widget calls (page, messages, questions) per minute per address. */
  rateLimit: RateLimit;
}

const tags = ['widget'];

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const callerOf = (request: FastifyRequest): widget.WidgetCaller => ({
  origin: header(request, EMBED_ORIGIN_HEADER),
  visitorKey: header(request, VISITOR_KEY_HEADER),
});

/** The origin a Referer names, or undefined without one (a no-referrer policy) or when it is not a URL. */
const refererOrigin = (request: FastifyRequest) => {
  const referer = header(request, 'referer');
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
};

const ownerRoutes = signedInRoutes<{ deps: ChatDeps }>(async (app, { deps }) => {
  app.get(
    '/bots/:id/widget-appearance',
    {
      schema: {
        tags,
        summary: "How the bot's widget looks on its owner's site (owner only)",
        params: idParamsSchema,
        response: { 200: widgetAppearanceSchema, 404: errorResponseSchema },
      },
    },
    async (request) => widget.getWidgetAppearance(deps, currentUserId(request), request.params.id),
  );
  app.patch(
    '/bots/:id/widget-appearance',
    {
      schema: {
        tags,
        summary:
          "Changes the widget's colour, title, corner, offsets, greeting or starters; only the fields sent change",
        params: idParamsSchema,
        body: updateWidgetAppearanceBodySchema,
        response: { 200: widgetAppearanceSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => widget.updateWidgetAppearance(deps, currentUserId(request), request.params.id, request.body),
  );
  app.get(
    '/bots/:id/widget-conversations',
    {
      schema: {
        tags,
        summary: "The bot's widget conversations (owner only), with today's widget questions and the daily cap",
        params: idParamsSchema,
        response: { 200: widgetConversationsSchema, 404: errorResponseSchema },
      },
    },
    async (request) => widget.listWidgetConversations(deps, currentUserId(request), request.params.id),
  );
  app.get(
    '/bots/:id/widget-conversations/:conversationId/messages',
    {
      schema: {
        tags,
        summary: 'The messages of one of the bot’s widget conversations (owner only)',
        params: widgetConversationParamsSchema,
        response: { 200: z.array(messageSchema), 404: errorResponseSchema },
      },
    },
    async (request) =>
      widget.widgetConversationMessages(deps, currentUserId(request), request.params.id, request.params.conversationId),
  );
});

/** What the widget page calls, anonymously: its visitor's conversation and new questions. */
const visitorRoutes: FastifyPluginAsyncZod<{ deps: ChatDeps; limitPerAddress: preHandlerAsyncHookHandler }> = async (
  app,
  { deps, limitPerAddress },
) => {
  app.get(
    '/widget/:botId/config',
    {
      preHandler: limitPerAddress,
      // A refusal (and the per-address limit's 429) names no bot: any page may read it, so embed.js can say why.
      onSend: async (_request, reply) => {
        reply.header('vary', 'origin');
        if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
      },
      schema: {
        tags,
        summary: "What embed.js draws the launcher with, asked from the embedding page (the browser's Origin header)",
        description:
          'Readable by the embedding page (CORS). 404 with the reason when the site may not embed the bot: ' +
          'embed.js then draws nothing and logs it.',
        params: widgetParamsSchema,
        response: { 200: widgetConfigSchema, 404: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const origin = header(request, 'origin');
      const config = await widget.widgetConfig(deps, request.params.botId, origin);
      reply.header('access-control-allow-origin', origin);
      return config;
    },
  );
  app.get(
    '/widget/:botId/messages',
    {
      preHandler: limitPerAddress,
      schema: {
        tags,
        summary: "The visitor's widget conversation with the bot (anonymous; their visitor key's only)",
        description: `Needs the \`${EMBED_ORIGIN_HEADER}\` (a site the owner listed) and \`${VISITOR_KEY_HEADER}\` headers.`,
        params: widgetParamsSchema,
        response: {
          200: widgetMessagesSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => widget.visitorMessages(deps, request.params.botId, callerOf(request)),
  );
  app.post(
    '/widget/:botId/replies',
    {
      preHandler: limitPerAddress,
      schema: {
        tags,
        summary: "Ask the bot from its widget; the reply streams as the app's does (server-sent events)",
        description:
          'Events as POST /api/conversations/{id}/stream, with messages and sources as a visitor sees them (no ids of ' +
          "the owner's files, no passages). 429 when the address asks too often or the bot " +
          'reached its widget daily cap (counted since midnight UTC; `retryAfter` says when it resets).',
        params: widgetParamsSchema,
        body: widgetReplyBodySchema,
        response: {
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { conversationId, pending } = await widget
        .beginWidgetReply({ ...deps, log: request.log }, request.params.botId, callerOf(request), request.body.content)
        .catch((error: unknown) => {
          // The daily cap says when it resets, as the per-address limit does.
          if (error instanceof AppError && typeof error.details.retryAfter === 'number')
            reply.header('retry-after', String(error.details.retryAfter));
          throw error;
        });
      await streamReply(reply, deps, conversationId, pending, widget.toWidgetEvent);
    },
  );
};

/**
 * The embeddable widget (issue 12 part 5, docs/decisions/0018): the page embed.js frames (both scripts are
 * static files of the built client) and the anonymous API that page calls. No session: visitors are told apart by the random key their browser keeps.
 */
export const widgetRoutes: FastifyPluginAsyncZod<WidgetRoutesOptions> = async (app, { deps, rateLimit }) => {
  // One budget per address across the widget's calls and bots.
  const limitPerAddress = limitBy(app, rateLimit, 'widget', (request) => request.ip);

  app.get(
    '/embed/:botId',
    {
      preHandler: limitPerAddress,
      // The page sets its own policy: framed by the bot's listed sites, which X-Frame-Options cannot say.
      config: { securityHeaders: 'framed' },
      schema: { hide: true, params: widgetParamsSchema, querystring: widgetPageQuerySchema },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const claimed = request.query.origin;
      const referer = refererOrigin(request);
      try {
        const { bot, origin, appearance } = await widget.embeddableWidget(deps, request.params.botId, claimed);
        // The browser names the framing page here (unless told not to): a mismatch is a page lying about where it is.
        if (referer !== undefined && referer !== origin) throw new AppError('NOT_FOUND', 'referer mismatch');
        return reply
          .header('content-security-policy', widgetPagePolicy(bot.sharing.embedOrigins))
          .send(widgetPage(bot, origin, appearance));
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
        // Holds nothing of the bot, so any site may show it: a clear sentence beats a blank frame.
        return reply
          .status(404)
          .header('content-security-policy', widgetPagePolicy(['*']))
          .send(refusalPage(WIDGET_MESSAGES.notAvailable));
      }
    },
  );

  await app.register(ownerRoutes, { deps, prefix: '/api' });
  await app.register(visitorRoutes, { deps, limitPerAddress, prefix: '/api' });
};
