import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { checkDatabase } from './health.repository';

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['sqlite', 'postgres']) });

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } } },
    async (request, reply) => {
      const check = await checkDatabase(db);
      if (check.ok) return { status: 'ok' as const, database: check.database };
      request.log.warn({ err: check.err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: check.database });
    },
  );
};
