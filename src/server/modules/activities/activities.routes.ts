import { z } from 'zod';
import { activitiesQuerySchema, activitySchema } from '@shared/contracts/activities';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import type { Db } from '../../db/database';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import { listActivities } from './activities.service';

export const activitiesRoutes = signedInRoutes<{ deps: { db: Db } }>(async (app, { deps }) => {
  app.get(
    '/users/:id/activities',
    {
      schema: {
        tags: ['activities'],
        params: idParamsSchema,
        querystring: activitiesQuerySchema,
        response: { 200: z.array(activitySchema), 404: errorResponseSchema },
      },
    },
    async (request) => listActivities(deps, currentUserId(request), request.params.id, request.query.limit),
  );
});
