import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activitiesQuerySchema, activitySchema } from '@shared/contracts/bots';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import type { Db } from '../../db/database';
import { sessionOf } from '../../plugins/auth-guard';
import { listActivities } from './activities.service';

export const activitiesRoutes: FastifyPluginAsyncZod<{ deps: { db: Db } }> = async (app, { deps }) => {
  app.get(
    '/users/:id/activities',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['activities'],
        security: [{ bearer: [] }],
        params: idParamsSchema,
        querystring: activitiesQuerySchema,
        response: { 200: z.array(activitySchema), 404: errorResponseSchema },
      },
    },
    async (request) => listActivities(deps, sessionOf(request).user.id, request.params.id, request.query.limit),
  );
};
