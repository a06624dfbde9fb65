import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { redisFallbackLog, subscribeChannel } from '../../lib/redis';
import { systemTimers, type Timer, type Timers } from '../../lib/timers';
import type { ReplyRegistry } from './reply-registry';
import { SHUTDOWN_REASON } from './reply-lifecycle';

// Renews the lock for its owner only; retakes it when it expired while Redis was away (or was never taken
// because the claim fell back to this instance), so the lock is shared again as soon as Redis is back.
const RENEW_LOCK = `local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;
// One call: whoever runs the reply hears it on the channel; the answer says whether anyone did.
const STOP = `if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('publish', ARGV[1], ARGV[2])
return 1`;

export interface RedisReplyRegistryOptions {
  /** Names this instance in the lock's value, so an operator can see who runs a reply. */
  instanceId: string;
  /** A lock whose owner died frees its conversation after this long; renewed every third of it. */
  lockTtlMs?: number;
  log: FastifyBaseLogger;
  /** Starts every key and channel, so several deployments (or parallel tests) can share one Redis. */
  keyPrefix?: string;
  /** The timer of renewals; a test's runs them by hand. The lock's expiry is Redis's, in real time. */
  timers?: Timers;
}

interface RunningReply {
  controller: AbortController;
  token: string;
  /** Warned once when another instance holds the lock this reply lost while Redis was away. */
  lost: boolean;
}

/**
 * The reply registry of several instances: a lock per conversation in Redis (SET NX PX, renewed while the
 * reply runs, deleted only by its owner) and Stop published to every instance, the one running the reply
 * aborting it. When Redis does not answer, each call falls back to what this instance knows (the
 * in-process behaviour) with one logged warning.
 */
export async function redisReplyRegistry(redis: Redis, options: RedisReplyRegistryOptions): Promise<ReplyRegistry> {
  const { instanceId, lockTtlMs = 15_000, log, keyPrefix = 'botty:', timers = systemTimers } = options;
  const lockKey = (conversationId: number) => `${keyPrefix}reply-lock:${conversationId}`;
  const stopChannel = `${keyPrefix}reply-stop`;
  const fallback = redisFallbackLog(log, 'the reply registry');
  const running = new Map<number, RunningReply>();

  const subscriber = await subscribeChannel(redis, {
    log,
    name: 'reply-stop',
    channel: stopChannel,
    onMessage: (conversationId) => running.get(Number(conversationId))?.controller.abort(),
    onError: fallback.failed,
  });

  let renewal: Timer | undefined;
  async function renewLocks() {
    const replies = [...running];
    const pipeline = redis.pipeline();
    for (const [conversationId, { token }] of replies)
      pipeline.eval(RENEW_LOCK, 1, lockKey(conversationId), token, lockTtlMs);
    try {
      const results = (await pipeline.exec()) ?? [];
      const failure = results.find(([err]) => err)?.[0];
      if (failure) throw failure;
      fallback.succeeded();
      results.forEach(([, renewed], i) => {
        const [conversationId, reply] = replies[i]!;
        if (renewed !== 0 || reply.lost) return;
        reply.lost = true;
        log.warn({ conversationId }, 'Another instance took the lock of a reply running here while Redis was away');
      });
    } catch (err) {
      fallback.failed(err);
    }
  }

  return {
    async claim(conversationId) {
      if (running.has(conversationId)) return null;
      const reply: RunningReply = {
        controller: new AbortController(),
        token: `${instanceId}:${randomBytes(8).toString('hex')}`,
        lost: false,
      };
      // Held while Redis answers, so a second claim on this instance cannot slip in meanwhile.
      running.set(conversationId, reply);
      try {
        const taken = await redis.set(lockKey(conversationId), reply.token, 'PX', lockTtlMs, 'NX');
        fallback.succeeded();
        if (taken !== 'OK') {
          running.delete(conversationId);
          return null;
        }
      } catch (err) {
        fallback.failed(err);
      }
      // The renewal's promise goes back to the timer, which a test's timers wait for (lib/timers.ts).
      renewal ??= timers.setInterval(() => renewLocks(), Math.max(1, Math.floor(lockTtlMs / 3))).unref();
      return {
        signal: reply.controller.signal,
        stop: () => reply.controller.abort(),
        release() {
          if (running.get(conversationId) !== reply) return;
          running.delete(conversationId);
          if (running.size === 0) {
            timers.clearInterval(renewal);
            renewal = undefined;
          }
          // When this fails the lock expires by itself within lockTtlMs, no longer renewed.
          redis.eval(RELEASE_LOCK, 1, lockKey(conversationId), reply.token).then(fallback.succeeded, fallback.failed);
        },
      };
    },

    async stop(conversationId) {
      const local = running.get(conversationId);
      if (local) {
        if (local.controller.signal.aborted) return false;
        local.controller.abort();
        return true;
      }
      try {
        const published = await redis.eval(STOP, 1, lockKey(conversationId), stopChannel, String(conversationId));
        fallback.succeeded();
        return published === 1;
      } catch (err) {
        fallback.failed(err);
        return 'unreachable';
      }
    },

    async release(conversationId) {
      if (running.has(conversationId)) return;
      try {
        await redis.del(lockKey(conversationId));
        fallback.succeeded();
      } catch (err) {
        // The lock expires by itself within lockTtlMs.
        fallback.failed(err);
      }
    },

    running: () => running.size,

    async stopAll() {
      for (const { controller } of running.values()) controller.abort(SHUTDOWN_REASON);
    },

    async close() {
      timers.clearInterval(renewal);
      renewal = undefined;
      subscriber.disconnect();
    },
  };
}
