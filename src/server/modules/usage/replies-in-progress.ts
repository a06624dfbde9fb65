import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config';
import { connectRedis, redisFallbackLog } from '../../lib/redis';

/**
 * Replies admitted under a daily limit and not yet written to usage_daily, per charged user: counted with the
 * day's totals so that instances admitting at the same moment do not all pass the last free reply. A place is
 * held from admission until the reply's usage is saved; one that is never given back (the request failed after
 * admission) expires after `holdMs`.
 */
export interface RepliesInProgress {
  /** Holds a place and answers how many are held now, this one included. */
  hold(userId: number): Promise<number>;
  /** Gives back the oldest place (replies are not told apart: only the count matters). */
  release(userId: number): Promise<void>;
}

export function inProcessRepliesInProgress(holdMs: number, now = () => Date.now()): RepliesInProgress {
  const held = new Map<number, number[]>();
  const live = (userId: number) => {
    const places = (held.get(userId) ?? []).filter((expiry) => expiry > now());
    if (places.length) held.set(userId, places);
    else held.delete(userId);
    return places;
  };
  return {
    async hold(userId) {
      const places = live(userId);
      places.push(now() + holdMs);
      held.set(userId, places);
      return places.length;
    },
    async release(userId) {
      live(userId).shift();
    },
  };
}

/**
 * Shared by every instance through a sorted set per user (scored by expiry); while Redis is away, each
 * instance counts its own.
 */
export function redisRepliesInProgress(
  redis: Redis,
  options: { holdMs: number; keyPrefix: string; log: FastifyBaseLogger },
): RepliesInProgress {
  const local = inProcessRepliesInProgress(options.holdMs);
  const fallback = redisFallbackLog(options.log, 'usage limits');
  const key = (userId: number) => `${options.keyPrefix}usage-in-progress:${userId}`;
  const withFallback = async <T>(shared: () => Promise<T>, alone: () => Promise<T>) => {
    try {
      const result = await shared();
      fallback.succeeded();
      return result;
    } catch (err) {
      fallback.failed(err);
      return alone();
    }
  };
  return {
    hold: (userId) =>
      withFallback(
        async () => {
          const now = Date.now();
          // Added before counting: of two instances holding at once, each counts the other's place.
          const results = await redis
            .multi()
            .zremrangebyscore(key(userId), '-inf', now)
            .zadd(key(userId), now + options.holdMs, randomUUID())
            .zcard(key(userId))
            .pexpire(key(userId), options.holdMs)
            .exec();
          const [error, count] = results?.[2] ?? [new Error('Redis transaction aborted'), 0];
          if (error) throw error;
          return Number(count);
        },
        () => local.hold(userId),
      ),
    release: (userId) =>
      withFallback(
        async () => void (await redis.zpopmin(key(userId))),
        () => local.release(userId),
      ),
  };
}

/**
 * The app's count: shared through Redis when REDIS_URL is set. A place is held for as long as a reply may take,
 * and a minute more for saving it.
 */
export async function appRepliesInProgress(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'> & { chat: Pick<Config['chat'], 'totalTimeoutMs'> },
): Promise<RepliesInProgress> {
  const holdMs = config.chat.totalTimeoutMs + 60_000;
  if (!config.redisUrl) return inProcessRepliesInProgress(holdMs);
  const redis = await connectRedis(config.redisUrl, { log: app.log, name: 'usage' });
  app.addHook('onClose', async () => redis.disconnect());
  return redisRepliesInProgress(redis, { holdMs, keyPrefix: config.redisKeyPrefix, log: app.log });
}
