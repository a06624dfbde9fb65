import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

/** A Redis call that has not answered by then is treated as Redis being away: callers fall back. */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

const BASE_OPTIONS: RedisOptions = {
  connectTimeout: 2000,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  // While Redis is away, calls fail at once instead of queueing behind a reconnect: every caller has an
  // in-process fallback, and a request must never wait for Redis to come back.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  // Exponential from 100 ms to 5 s, with jitter so that N instances do not reconnect in lockstep.
  retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), 5000) + Math.floor(Math.random() * 100),
};

/** What a Redis outage means for the people using an instance; readiness (health module) says it too. */
export const REDIS_DEGRADED_MEANING =
  'rate limits, Stop, resuming a reply and sign-outs work per instance until Redis is back';

/**
 * What is failing to reach Redis, per instance (its logger): connections by name, and the components that
 * fell back to this instance. An outage shows in all of them at once; the operator gets one warning when the
 * first goes and one line when the last is back, the rest at debug level.
 */
const outages = new WeakMap<FastifyBaseLogger, Set<string>>();

function partsDown(log: FastifyBaseLogger) {
  let down = outages.get(log);
  if (!down) outages.set(log, (down = new Set()));
  return down;
}

function reportDown(log: FastifyBaseLogger, part: string, err: unknown) {
  const down = partsDown(log);
  const first = down.size === 0;
  down.add(part);
  // The message says it all; a stack trace per outage says nothing more.
  const details = { part, error: err instanceof Error ? err.message : String(err) };
  if (first) log.warn(details, `Redis unavailable: ${REDIS_DEGRADED_MEANING}`);
  else log.debug(details, 'Redis unavailable here too');
}

/** `connection`: a connection is back, so the components' calls through it work again too. */
function reportUp(log: FastifyBaseLogger, part: string, { connection = false } = {}) {
  const down = partsDown(log);
  if (!down.delete(part)) return;
  if (connection) for (const other of down) if (!other.startsWith('connection ')) down.delete(other);
  if (down.size === 0) log.info('Redis available again: limits, Stop, resuming replies and sign-outs are shared again');
  else log.debug({ part }, 'Redis available again here');
}

/** ioredis emits `error` for every failed reconnection attempt: the first of an outage is reported. */
function logOutages(redis: Redis, log: FastifyBaseLogger, name: string) {
  const part = `connection "${name}"`;
  let down = false;
  const lost = (err: Error) => {
    if (down) return;
    down = true;
    reportDown(log, part, err);
  };
  redis.on('error', lost);
  // A connection that drops and is straight back may never fail an attempt: the drop itself is the outage, or
  // the components that fell back meanwhile would be told of its return by nobody.
  redis.on('reconnecting', () => lost(new Error('connection lost')));
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    reportUp(log, part, { connection: true });
  });
  // Closed for good (shutdown, an idle reader): no longer part of an outage, and nothing to announce.
  redis.on('end', () => partsDown(log).delete(part));
  return redis;
}

/**
 * The one way Botty opens a Redis connection: bounded calls, fail-fast while away, reconnects by itself.
 * Waits for the connection to be ready, since calls before then would fail, but no longer than
 * `connectTimeout`: a Redis that is away at start-up delays nothing beyond that, and is used once back.
 * `overrides` change these options (tests reconnect within milliseconds: tests/support/redis.ts). The client
 * library is loaded by the first connection: an instance without Redis never loads it (decision 0055).
 */
export async function connectRedis(
  url: string,
  options: { log: FastifyBaseLogger; name: string; overrides?: RedisOptions },
): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = logOutages(
    new Redis(url, { ...BASE_OPTIONS, connectionName: `botty-${options.name}`, ...options.overrides }),
    options.log,
    options.name,
  );
  await whenReady(redis, BASE_OPTIONS.connectTimeout!);
  return redis;
}

/**
 * A second connection to the same server, for a subscriber or a blocking reader (either ties a connection
 * up), with the options `redis` was opened with (by connectRedis). `overrides` lets a blocking reader replace
 * the command timeout by a bound on its BLOCK.
 */
export function duplicateRedis(
  redis: Redis,
  options: { log: FastifyBaseLogger; name: string; overrides?: RedisOptions },
): Redis {
  return logOutages(
    redis.duplicate({ connectionName: `botty-${options.name}`, ...options.overrides }),
    options.log,
    options.name,
  );
}

/** How long a subscription may delay start-up when Redis is slow or away; it is retried on reconnection. */
const SUBSCRIBE_WAIT_MS = 2000;

/**
 * A subscriber connection (a second one: subscribing ties a connection up) to `channel`, handing each message to
 * `onMessage`, subscribed again on every reconnection since ioredis does not retry a subscription that failed
 * while Redis was away. Waits for the first subscription at most SUBSCRIBE_WAIT_MS.
 */
export async function subscribeChannel(
  redis: Redis,
  options: {
    log: FastifyBaseLogger;
    name: string;
    channel: string;
    onMessage: (message: string) => void;
    onError: (err: unknown) => void;
  },
): Promise<Redis> {
  // ioredis's own resubscription is off: it runs before 'ready' is emitted, and nothing catches its call, so a
  // connection lost again right then (offline queue off) rejected it unhandled. The handler below does the same job.
  const subscriber = duplicateRedis(redis, {
    log: options.log,
    name: options.name,
    overrides: { autoResubscribe: false },
  });
  subscriber.on('message', (_channel: string, message: string) => options.onMessage(message));
  let subscribed: Promise<unknown> = Promise.resolve();
  subscriber.on('ready', () => {
    subscribed = subscriber.subscribe(options.channel).catch(options.onError);
  });
  if (await whenReady(subscriber, SUBSCRIBE_WAIT_MS)) await subscribed;
  return subscriber;
}

/** True once the connection is ready; false at its first error or after `ms`, whichever comes first. */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady).off('error', onError);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady).on('error', onError);
  });
}

/**
 * What a Redis-backed component reports when it falls back to in-process behaviour, and when Redis answers it
 * again: part of the instance's one warning and one line per outage.
 */
export function redisFallbackLog(log: FastifyBaseLogger, component: string) {
  return {
    failed: (err: unknown) => reportDown(log, component, err),
    succeeded: () => reportUp(log, component),
  };
}

export type RedisFallbackLog = ReturnType<typeof redisFallbackLog>;
