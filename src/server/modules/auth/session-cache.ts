import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { connectRedis, redisFallbackLog, subscribeChannel } from '../../lib/redis';

/** Sessions remembered at most; past that the oldest go first (one entry is a few hundred bytes). */
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  userId: number;
  /** Epoch milliseconds: the cache's lifetime or the session's expiry, whichever comes first. */
  until: number;
}

export interface SessionCache<T> {
  /**
   * The live session of a token hash: remembered for up to `ttlMs` (never past `expiresAt`), and looked up once
   * for all the requests that ask at the same time (a page's parallel calls, a burst of replies).
   */
  get(
    tokenHash: string,
    lookup: () => Promise<{ value: T; userId: number; expiresAt: string } | undefined>,
  ): Promise<T | null>;
  /**
   * Called after a change to a user or their sessions is committed (sign-out, password, profile, deletion): this
   * instance forgets their sessions at once, and with Redis every other instance does too.
   */
  forgetUser(userId: number): Promise<void>;
}

/**
 * Every signed-in request reads its session with its user; at a chat's pace these reads repeat the same answer
 * many times a second (decision 0020). A change to a user or their sessions is told through forgetUser.
 * `ttlMs` bounds what a lost notice (Redis away while several instances run) can leave stale; 0 turns the
 * cache off.
 */
export function sessionCache<T>(options: {
  ttlMs: number;
  now: () => number;
  /** Another instance's forgetUser: forget the user here too. */
  onRemoteForget?: (listener: (userId: number) => void) => void;
  publishForget?: (userId: number) => Promise<void>;
}): SessionCache<T> {
  const entries = new Map<string, Entry<T>>();
  const inFlight = new Map<string, Promise<T | null>>();
  // Bumped by every forget: a lookup that began before it does not store what it read, which may be older.
  let generation = 0;

  const forgetHere = (userId: number) => {
    generation += 1;
    inFlight.clear();
    for (const [hash, entry] of entries) if (entry.userId === userId) entries.delete(hash);
  };
  options.onRemoteForget?.(forgetHere);

  return {
    get(tokenHash, lookup) {
      const entry = entries.get(tokenHash);
      if (entry && entry.until > options.now()) return Promise.resolve(entry.value);
      if (entry) entries.delete(tokenHash);
      if (options.ttlMs <= 0) return lookup().then((found) => found?.value ?? null);
      const pending = inFlight.get(tokenHash);
      if (pending) return pending;
      const startedIn = generation;
      const read = lookup()
        .then((found) => {
          if (!found) return null;
          if (startedIn === generation) {
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
            const until = Math.min(options.now() + options.ttlMs, new Date(found.expiresAt).getTime());
            entries.set(tokenHash, { value: found.value, userId: found.userId, until });
          }
          return found.value;
        })
        .finally(() => {
          if (inFlight.get(tokenHash) === read) inFlight.delete(tokenHash);
        });
      inFlight.set(tokenHash, read);
      return read;
    },
    async forgetUser(userId) {
      forgetHere(userId);
      await options.publishForget?.(userId);
    },
  };
}

/**
 * The app's session cache: with REDIS_URL, forgetUser is published on a channel every instance listens to. When
 * Redis is away a notice is lost (logged once), and the cache's lifetime bounds what that leaves stale.
 */
export async function appSessionCache<T>(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix' | 'sessionCacheMs'>,
  clock: Clock,
): Promise<SessionCache<T>> {
  const base = { ttlMs: config.sessionCacheMs, now: () => clock.now().getTime() };
  if (!config.redisUrl || config.sessionCacheMs <= 0) return sessionCache<T>(base);
  const redis = await connectRedis(config.redisUrl, { log: app.log, name: 'sessions' });
  const channel = `${config.redisKeyPrefix}sessions-changed`;
  const fallback = redisFallbackLog(app.log, 'the session cache');
  let forgetHere: ((userId: number) => void) | undefined;
  const subscriber = await subscribeChannel(redis, {
    log: app.log,
    name: 'sessions-changed',
    channel,
    onMessage: (userId) => forgetHere?.(Number(userId)),
    onError: fallback.failed,
  });
  app.addHook('onClose', async () => {
    subscriber.disconnect();
    redis.disconnect();
  });
  return sessionCache<T>({
    ...base,
    onRemoteForget: (listener) => (forgetHere = listener),
    async publishForget(userId) {
      try {
        await redis.publish(channel, String(userId));
        fallback.succeeded();
      } catch (err) {
        fallback.failed(err);
      }
    },
  });
}
