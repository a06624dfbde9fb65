import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { REDIS_DEGRADED_MEANING } from '../../lib/redis';
import { checkDatabase } from './health.repository';

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['sqlite', 'postgres']) });

const readinessSchema = z.object({
  status: z.enum(['ready', 'unavailable', 'draining']),
  database: z.enum(['up', 'down']),
  /** `none`: no REDIS_URL, the instance shares nothing and needs nothing. */
  redis: z.enum(['up', 'degraded', 'none']),
  /** What a degraded part means. */
  notes: z.array(z.string()),
});

export interface HealthRoutesOptions {
  db: Db;
  /** Whether the Redis this instance shares replies through answers; undefined without REDIS_URL. */
  redisUp(): boolean | undefined;
  /** The instance is shutting down (SIGTERM). */
  draining(): boolean;
}

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, { db, redisUp, draining }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        description: 'Liveness: the process answers and reaches its database.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const check = await checkDatabase(db);
      if (check.ok) return { status: 'ok' as const, database: check.database };
      request.log.warn({ err: check.err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: check.database });
    },
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['health'],
        description:
          'Readiness, for a load balancer: 503 while the database is unreachable or once the instance is draining ' +
          '(shutting down); 200 with `redis: degraded` while a configured Redis is away, as the instance still serves.',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const database = (await checkDatabase(db)).ok ? 'up' : 'down';
      const up = redisUp();
      const redis = up === undefined ? 'none' : up ? 'up' : 'degraded';
      const status = draining() ? 'draining' : database === 'down' ? 'unavailable' : 'ready';
      const body = {
        status,
        database,
        redis,
        notes: redis === 'degraded' ? [`Redis is away: ${REDIS_DEGRADED_MEANING}.`] : [],
      } as const;
      return reply.status(status === 'ready' ? 200 : 503).send(body);
    },
  );
};
