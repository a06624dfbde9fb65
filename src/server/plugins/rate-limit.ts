import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { connectRedis, redisFallbackLog } from '../lib/redis';
import { AppError } from '../lib/errors';
import { currentUserId } from './auth-guard';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

type Counted = Parameters<Parameters<FastifyRateLimitStore['incr']>[1]>[1];
type Done = (error: Error | null, result?: Counted) => void;
/** The plugin's own stores, which it does not export; Botty sets neither `continueExceeding` nor backoff. */
interface Store extends FastifyRateLimitStore {
  read(key: string, done: Done, timeWindow: number, max: number): void;
  child(routeOptions: object): Store;
}
const packageFile = createRequire(import.meta.url);
const RedisStore = packageFile('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: false,
  exponentialBackoff: false,
  redis: Redis,
  nameSpace: string,
) => Store;
const LocalStore = packageFile('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: false,
  exponentialBackoff: false,
) => Store;

/**
 * Counts in Redis, shared by every instance, and on this instance too: while Redis is away (a failed or timed-out
 * call) the instance's own count answers, so every limit still holds, per instance, and an outage hands nobody a
 * fresh budget. Redis answers again as soon as it is back.
 */
class SharedOrLocalStore implements Store {
  constructor(
    private readonly shared: Store,
    private readonly local: Store,
    private readonly outage: ReturnType<typeof redisFallbackLog>,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number) {
    this.count('incr', key, done, timeWindow, max);
  }

  read(key: string, done: Done, timeWindow: number, max: number) {
    this.count('read', key, done, timeWindow, max);
  }

  private count(method: 'incr' | 'read', key: string, done: Done, timeWindow: number, max: number) {
    // The in-memory store answers at once and never fails.
    this.local[method](
      key,
      (_never, local) =>
        this.shared[method](
          key,
          (error, shared) => {
            if (error) this.outage.failed(error);
            else this.outage.succeeded();
            done(null, error ? local : shared);
          },
          timeWindow,
          max,
        ),
      timeWindow,
      max,
    );
  }

  child(routeOptions: object) {
    return new SharedOrLocalStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.outage);
  }
}

/** The store class the plugin instantiates (once, with `new`): its own stores over `redis` and in memory. */
function sharedOrLocalStore(redis: Redis, nameSpace: string, log: FastifyBaseLogger) {
  const outage = redisFallbackLog(log, 'rate limiting');
  return class extends SharedOrLocalStore {
    constructor() {
      super(new RedisStore(false, false, redis, nameSpace), new LocalStore(false, false), outage);
    }
  };
}

/**
 * Off by default; routes opt in with `config.rateLimit`. Redis shares the counts between instances; while it is
 * away each instance counts on its own (README).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>) => {
    const redis = options.redisUrl
      ? await connectRedis(options.redisUrl, { log: app.log, name: 'rate-limits' })
      : undefined;
    if (redis) app.addHook('onClose', async () => void redis.disconnect());
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { store: sharedOrLocalStore(redis, `${options.redisKeyPrefix}rl-`, app.log) } : {}),
      keyGenerator: (request) => `${request.ip}:${request.routeOptions.url ?? request.url}`,
    });
  },
);

/**
 * What a limit counts by when it comes from a person (a username, an address typed in a form): Redis keys, visible
 * to whoever runs Redis, keep a digest instead. 16 bytes of SHA-256: no two accounts share a budget.
 */
export const limitKey = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

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
  const check = app.createRateLimit({ ...limit, keyGenerator: (request) => `${bucket}:${limitKey(key(request))}` });
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

/**
 * The user's model-call budget counted `calls` times for one request: a job (an evaluation, a release's runs)
 * counts every call it will make up front, so it never stops half-way for the limit.
 */
export function modelCallsOfRequest(app: FastifyInstance, limit: RateLimit) {
  const countModelCall = limitPerUser(app, limit, 'model-calls');
  return (request: FastifyRequest, reply: FastifyReply) => async (calls: number) => {
    for (let i = 0; i < calls; i += 1) await countModelCall(request, reply);
  };
}
