import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { connectRedis, redisFallbackLog, subscribeChannel } from './redis';

/**
 * What one instance tells them all (decision 0051): work was queued that any instance's runner may take, or what
 * every instance remembers from the database (lib/remembered.ts) was changed.
 */
export type NoticeKind = 'files-queued' | 'evaluation-queued' | 'settings-changed' | 'connections-changed';

/**
 * Notices without a payload, for every instance: this one hears them at once, the others through one Redis
 * channel when REDIS_URL is set. A notice is a hint, never the truth: whoever listens also reads the database on
 * a schedule of its own (a runner's poll, a remembered value's lifetime), which bounds what a notice lost while
 * Redis is away leaves undone.
 */
export interface InstanceNotices {
  /** Calls this instance's listeners, then publishes; never fails (a notice that cannot be sent is logged). */
  tell(kind: NoticeKind): Promise<void>;
  /** Calls `listener` at each notice of `kind`, told here or elsewhere; the returned function stops listening. */
  on(kind: NoticeKind, listener: () => void): () => void;
  /** Stops hearing the other instances (the connection given is the caller's to close). */
  close(): void;
}

export async function instanceNotices(options: {
  log: FastifyBaseLogger;
  redis?: Redis;
  keyPrefix?: string;
}): Promise<InstanceNotices> {
  const { redis, log, keyPrefix = 'botty:' } = options;
  const listeners = new EventEmitter();
  listeners.setMaxListeners(0);
  // Apps in one process (tests) each have their own: a message is skipped only by the instance that sent it.
  const self = randomUUID();
  const channel = `${keyPrefix}notices`;
  const fallback = redisFallbackLog(log, 'notices to other instances');
  const subscriber =
    redis &&
    (await subscribeChannel(redis, {
      log,
      name: 'notices',
      channel,
      onMessage(message) {
        // "<sender> <kind>": nothing to parse that could throw; a kind this version does not know has no listener.
        const [sender, kind] = message.split(' ');
        if (sender !== self && kind) listeners.emit(kind);
      },
      onError: fallback.failed,
    }));
  return {
    async tell(kind) {
      listeners.emit(kind);
      if (!redis) return;
      try {
        await redis.publish(channel, `${self} ${kind}`);
        fallback.succeeded();
      } catch (err) {
        fallback.failed(err);
      }
    },
    on(kind, listener) {
      listeners.on(kind, listener);
      return () => listeners.off(kind, listener);
    },
    close: () => subscriber?.disconnect(),
  };
}

/** The app's notices, on a Redis connection of their own when REDIS_URL is set; closed with the app. */
export async function appInstanceNotices(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>,
): Promise<InstanceNotices> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, { log: app.log, name: 'notices' }) : undefined;
  const notices = await instanceNotices({ log: app.log, redis, keyPrefix: config.redisKeyPrefix });
  app.addHook('onClose', async () => {
    notices.close();
    redis?.disconnect();
  });
  return notices;
}
