import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** Off by default; routes opt in with `config.rateLimit`. Redis shares the counts between instances. */
export const rateLimitPlugin = fp(async (app: FastifyInstance, options: { redisUrl: string | undefined }) => {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'botty-rl-' } : {}),
    keyGenerator: (request) => `${request.ip}:${request.routeOptions.url ?? request.url}`,
  });
});
