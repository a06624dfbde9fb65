import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  evaluationParamsSchema,
  evaluationSchema,
  evaluationSummarySchema,
  runEvaluationBodySchema,
  type EvaluationEvent,
} from '@shared/contracts/evaluations';
import { openNdjson } from '../../lib/ndjson-stream';
import { currentUserId } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as evaluations from './evaluations.service';

export interface EvaluationsRoutesOptions {
  deps: evaluations.EvaluationsDeps;
  /** The user's model-call budget, shared with the chat ('model-calls'). */
  modelCallRateLimit: RateLimit;
}

export const evaluationsRoutes = signedInRoutes<EvaluationsRoutesOptions>(async (app, { deps, modelCallRateLimit }) => {
  const tags = ['evaluations'];
  const countModelCall = limitPerUser(app, modelCallRateLimit, 'model-calls');

  app.post(
    '/bots/:id/evaluations',
    {
      schema: {
        tags,
        description:
          "Runs the bot's test set (its example queries) on a version (`version`, the current one when left " +
          'out): each query is answered and judged pass or fail by the configured model. Streamed as ' +
          'application/x-ndjson: `started` ({ evaluation }), a `result` per query in order, then `done`. ' +
          'Closing the request cancels it. Each query counts two model calls against the per-user limit ' +
          '(429 before anything runs when they do not fit). One evaluation per bot at a time (409); ' +
          'offline: 503.',
        params: idParamsSchema,
        body: runEvaluationBodySchema,
        response: {
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      const started = await evaluations.startEvaluation(deps, userId, request.params.id, request.body);
      try {
        // Every call the run will make is counted up front, so a run never stops half-way for the limit.
        for (let i = 0; i < started.evaluation.total * evaluations.CALLS_PER_QUERY; i += 1) {
          await countModelCall(request, reply);
        }
      } catch (error) {
        await started.abandon();
        throw error;
      }
      const stream = openNdjson<EvaluationEvent>(reply);
      await started.run(stream.gone, stream.send, request.log);
      stream.end();
    },
  );

  app.get(
    '/bots/:id/evaluations',
    {
      schema: {
        tags,
        description: "The bot's evaluations, newest first, with how many queries passed.",
        params: idParamsSchema,
        response: { 200: z.array(evaluationSummarySchema), 404: errorResponseSchema },
      },
    },
    async (request) => evaluations.listEvaluations(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/bots/:id/evaluations/:evaluationId',
    {
      schema: {
        tags,
        description: 'One evaluation with each query, its answer and the verdict.',
        params: evaluationParamsSchema,
        response: { 200: evaluationSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      evaluations.getEvaluation(deps, currentUserId(request), request.params.id, request.params.evaluationId),
  );
});
