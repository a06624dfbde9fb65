import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  feedbackBodySchema,
  feedbackLogQuerySchema,
  feedbackLogSchema,
  feedbackSchema,
} from '@shared/contracts/feedback';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as feedback from './feedback.service';

export const feedbackRoutes = signedInRoutes<{ deps: feedback.FeedbackDeps }>(async (app, { deps }) => {
  const tags = ['feedback'];

  app.post(
    '/messages/:id/feedback',
    {
      schema: {
        tags,
        description:
          'Thumbs up or down on a reply, with an optional comment; sending it again changes it, a null rating ' +
          'removes it. The rating keeps the bot version that wrote the reply.',
        params: idParamsSchema,
        body: feedbackBodySchema,
        response: { 200: feedbackSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => feedback.rateMessage(deps, currentUserId(request), request.params.id, request.body),
  );

  app.get(
    '/conversations/:id/feedback',
    {
      schema: {
        tags,
        description: "The conversation's rated replies.",
        params: idParamsSchema,
        response: { 200: z.array(feedbackSchema), 404: errorResponseSchema },
      },
    },
    async (request) => feedback.conversationRatings(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/bots/:id/feedback',
    {
      schema: {
        tags,
        description:
          "The owner's feedback log: the bot's rated replies, whoever rated them, newest first, with the question " +
          'each answered, its version and surface, and whether that question is a test already. Filter by rating, ' +
          'version and surface; pass nextCursor back as cursor for the next page.',
        params: idParamsSchema,
        querystring: feedbackLogQuerySchema,
        response: { 200: feedbackLogSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => feedback.feedbackLog(deps, currentUserId(request), request.params.id, request.query),
  );
});
