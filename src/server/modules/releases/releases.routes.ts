import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import {
  createReleaseBodySchema,
  releaseGateSchema,
  releaseParamsSchema,
  releaseSchema,
} from '@shared/contracts/releases';
import { currentUserId } from '../../plugins/auth-guard';
import { modelCallsOfRequest, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as releases from './releases.service';

export interface ReleasesRoutesOptions {
  deps: releases.ReleasesDeps;
  /** The user's model-call budget, shared with the chat and evaluations ('model-calls'). */
  modelCallRateLimit: RateLimit;
}

export const releasesRoutes = signedInRoutes<ReleasesRoutesOptions>(async (app, { deps, modelCallRateLimit }) => {
  const tags = ['releases'];
  const modelCalls = modelCallsOfRequest(app, modelCallRateLimit);

  app.post(
    '/bots/:id/releases',
    {
      schema: {
        tags,
        description:
          'Publishes a version (`version`, the latest when left out) to everyone but the owner: shared links, ' +
          'Explore, the widget, `/v1` and `/mcp`. Answers 202 with the release. With a test set it is `checking`: ' +
          'the server runs the test set on the published version (unless a finished run asked the same questions) ' +
          'and on this one, then the gate (`GET …/release-gate`) publishes it or blocks it with the reasons, ' +
          'question by question (`published`, `blocked`, or `failed` when a run could not finish). ' +
          '`override: { reason }` publishes at once, keeping the reason; `skipGate: true` rolls back at once to a ' +
          'version published before; a bot without a test set publishes at once, the release saying nothing was ' +
          'tested. One release checked at a time (409); offline with a test set: 503.',
        params: idParamsSchema,
        body: createReleaseBodySchema,
        response: {
          202: releaseSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const countCalls = modelCalls(request, reply);
      const release = await releases.requestRelease(
        deps,
        currentUserId(request),
        request.params.id,
        request.body,
        countCalls,
      );
      return reply.code(202).send(release);
    },
  );

  app.get(
    '/bots/:id/releases',
    {
      schema: {
        tags,
        description: "The bot's releases, newest first: what was published, blocked or rolled back, and why.",
        params: idParamsSchema,
        response: { 200: z.array(releaseSchema), 404: errorResponseSchema },
      },
    },
    async (request) => releases.listReleases(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/bots/:id/releases/:releaseId',
    {
      schema: {
        tags,
        description: 'One release with what its gate found.',
        params: releaseParamsSchema,
        response: { 200: releaseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => releases.getRelease(deps, currentUserId(request), request.params.id, request.params.releaseId),
  );

  app.get(
    '/bots/:id/release-gate',
    {
      schema: {
        tags,
        description:
          'What a release must hold: `minPassRate` (0–1; null: not lower than the published version’s) and ' +
          '`maxRegressions` (questions that passed on the published version and fail now). Defaults: null and 0.',
        params: idParamsSchema,
        response: { 200: releaseGateSchema, 404: errorResponseSchema },
      },
    },
    async (request) => releases.getReleaseGate(deps, currentUserId(request), request.params.id),
  );

  app.put(
    '/bots/:id/release-gate',
    {
      schema: {
        tags,
        description: 'Sets the release gate (both fields).',
        params: idParamsSchema,
        body: releaseGateSchema,
        response: { 200: releaseGateSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => releases.putReleaseGate(deps, currentUserId(request), request.params.id, request.body),
  );
});
