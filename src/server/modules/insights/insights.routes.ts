import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { insightsQuerySchema, insightsSchema } from '@shared/contracts/insights';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as insights from './insights.service';

export const insightsRoutes = signedInRoutes<{ deps: insights.InsightsDeps }>(async (app, { deps }) => {
  app.get(
    '/bots/:id/insights',
    {
      schema: {
        tags: ['insights'],
        description:
          'How the bot is used and doing over the last `days` days (default 30): conversations, messages and ' +
          'replies per day, median time to first token and reply time, failed and stopped replies, ratings, ' +
          'token usage when the provider reports it, and the latest test-set pass rate per version.',
        params: idParamsSchema,
        querystring: insightsQuerySchema,
        response: { 200: insightsSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => insights.botInsights(deps, currentUserId(request), request.params.id, request.query.days),
  );
});
