import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  compareEvaluationsQuerySchema,
  evaluationComparisonSchema,
  evaluationParamsSchema,
  evaluationSchema,
  evaluationSummarySchema,
  runEvaluationBodySchema,
  type EvaluationEvent,
} from '@shared/contracts/evaluations';
import { openNdjson } from '../../lib/ndjson-stream';
import { currentUserId } from '../../plugins/auth-guard';
import { modelCallsOfRequest, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import { followEvaluation } from './evaluation-events';
import { queueEvaluation } from './evaluation-jobs';
import * as evaluations from './evaluations.service';

export interface EvaluationsRoutesOptions {
  deps: evaluations.EvaluationsDeps;
  /** The user's model-call budget, shared with the chat ('model-calls'). */
  modelCallRateLimit: RateLimit;
}

export const evaluationsRoutes = signedInRoutes<EvaluationsRoutesOptions>(async (app, { deps, modelCallRateLimit }) => {
  const tags = ['evaluations'];
  const modelCalls = modelCallsOfRequest(app, modelCallRateLimit);

  app.post(
    '/bots/:id/evaluations',
    {
      schema: {
        tags,
        description:
          "Queues a run of the bot's test set on a version (`version`, the current one when left out) and " +
          'answers at once (202, status `queued`). The server runs it, whoever watches: each question is answered ' +
          'and judged pass or fail with a 1–5 score by the configured model (`judge_unavailable` when the judge ' +
          'cannot say). Follow it with `GET …/events`; stop it with `POST …/cancel`. Each question counts two ' +
          'model calls against the per-user limit (429 before anything is queued when they do not fit). One ' +
          'queued or running evaluation per bot (409); offline: 503.',
        params: idParamsSchema,
        body: runEvaluationBodySchema,
        response: {
          202: evaluationSummarySchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const ownerId = currentUserId(request);
      const botId = request.params.id;
      const version = request.body.version ?? (await evaluations.currentVersion(deps, ownerId, botId));
      const countCalls = modelCalls(request, reply);
      return reply.code(202).send(await queueEvaluation(deps, { ownerId, botId, version, countCalls }));
    },
  );

  app.get(
    '/bots/:id/evaluations',
    {
      schema: {
        tags,
        description: "The bot's evaluations, newest first, with their progress and how many questions passed.",
        params: idParamsSchema,
        response: { 200: z.array(evaluationSummarySchema), 404: errorResponseSchema },
      },
    },
    async (request) => evaluations.listEvaluations(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/bots/:id/evaluations/compare',
    {
      schema: {
        tags,
        description:
          'Two runs of the bot compared question by question (matched by their text): better, worse, ' +
          'regression, same, new or not compared, with totals, pass rates (answers the judge could not grade ' +
          'left out) and the verdict line, e.g. "Version 5 vs version 4: 3 better, 1 regression".',
        params: idParamsSchema,
        querystring: compareEvaluationsQuerySchema,
        response: { 200: evaluationComparisonSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      evaluations.compare(deps, currentUserId(request), request.params.id, request.query.before, request.query.after),
  );

  app.get(
    '/bots/:id/evaluations/:evaluationId',
    {
      schema: {
        tags,
        description: 'One evaluation with each question, its answer, the verdict and score.',
        params: evaluationParamsSchema,
        response: { 200: evaluationSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      evaluations.getEvaluation(deps, currentUserId(request), request.params.id, request.params.evaluationId),
  );

  app.get(
    '/bots/:id/evaluations/:evaluationId/events',
    {
      schema: {
        tags,
        description:
          "An evaluation's progress as application/x-ndjson, on any instance: `started` ({ evaluation }), a " +
          '`result` per question answered (those stored already first), then `done` ({ evaluation }) once it ' +
          'ended. Leaving does not stop the run.',
        params: evaluationParamsSchema,
        response: { 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { id, evaluationId } = request.params;
      await evaluations.getEvaluation(deps, currentUserId(request), id, evaluationId);
      const stream = openNdjson<EvaluationEvent>(reply);
      for await (const event of followEvaluation(deps.db.kysely, deps.signals, evaluationId, stream.gone)) {
        stream.send(event);
      }
      stream.end();
    },
  );

  app.post(
    '/bots/:id/evaluations/:evaluationId/cancel',
    {
      schema: {
        tags,
        description:
          'Cancels a queued or running evaluation: it stops before its next question and keeps the results ' +
          'it has. Cancelling one that already ended changes nothing.',
        params: evaluationParamsSchema,
        response: { 200: evaluationSummarySchema, 404: errorResponseSchema },
      },
    },
    async (request) => evaluations.cancel(deps, currentUserId(request), request.params.id, request.params.evaluationId),
  );
});
