import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { connectRedis } from '../lib/redis';
import { AppError } from '../lib/errors';
import { currentUserId } from './auth-guard';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** Off by default; routes opt in with `config.rateLimit`. Redis shares the counts between instances. */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>) => {
    const redis = options.redisUrl
      ? await connectRedis(options.redisUrl, { log: app.log, name: 'rate-limits' })
      : undefined;
    if (redis) app.addHook('onClose', async () => void redis.disconnect());
    await app.register(rateLimit, {
      global: false,
      // Redis away: count on this instance rather than refuse every request.
      skipOnError: true,
      ...(redis ? { redis, nameSpace: `${options.redisKeyPrefix}rl-` } : {}),
      keyGenerator: (request) => `${request.ip}:${request.routeOptions.url ?? request.url}`,
    });
  },
);

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a moment and try again.';

/**
 * A limit counted per `key(request)` instead of per address, as a preHandler: it runs after the signed-in check
 * and after the body is parsed, so it can count per user or per account named in the body. Built on
 * `createRateLimit` rather than `rateLimit`, because the plugin runs only one `rateLimit` hook per request and
 * these come on top of a route's own per-address limit.
 */
export function limitBy(
  app: FastifyInstance,
  limit: RateLimit,
  bucket: string,
  key: (request: FastifyRequest) => string,
) {
  const check = app.createRateLimit({ ...limit, keyGenerator: (request) => `${bucket}:${key(request)}` });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    // `isAllowed` only means "on the allow list"; the count decides.
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    throw new AppError('RATE_LIMITED', TOO_MANY_ATTEMPTS);
  };
}

/** One budget per signed-in user (not per address) for `bucket`. */
export const limitPerUser = (app: FastifyInstance, limit: RateLimit, bucket: string) =>
  limitBy(app, limit, bucket, (request) => String(currentUserId(request)));
