import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ChatStreamEvent } from '@shared/contracts/chat';
import { duplicateRedis, REDIS_COMMAND_TIMEOUT_MS, whenReady, type RedisFallbackLog } from '../../lib/redis';
import type { Timers } from '../../lib/timers';
import { isTerminalEvent, type ReplyEventEntry } from './reply-events';

/** A client on this instance following a reply written elsewhere. */
interface Follower {
  replyId: string;
  lastSeq: number;
  queue: ReplyEventEntry[];
  wake: (() => void) | undefined;
  finished: boolean;
  lastEventAt: number;
}

export interface EventFollowersOptions {
  log: FastifyBaseLogger;
  idleMs: number;
  blockMs: number;
  timers: Timers;
  fallback: RedisFallbackLog;
}

/**
 * Clients following replies written on other instances: one blocking XREAD for all of them, interrupted (CLIENT
 * UNBLOCK) when a follower joins, so the new stream is read at once.
 */
export function redisEventFollowers(redis: Redis, options: EventFollowersOptions) {
  const { log, idleMs, blockMs, timers, fallback } = options;
  const now = () => timers.now().getTime();
  const followers = new Map<string, Set<Follower>>();
  let reader: Redis | undefined;
  let readerId: number | undefined;
  let reading: Promise<void> | undefined;
  let blocked = false;
  let generation = 0;

  function finish(follower: Follower, key: string) {
    follower.finished = true;
    const set = followers.get(key);
    set?.delete(follower);
    if (set?.size === 0) followers.delete(key);
    follower.wake?.();
  }

  function finishAll(predicate: (follower: Follower) => boolean) {
    for (const [key, set] of followers) for (const follower of set) if (predicate(follower)) finish(follower, key);
  }

  function deliver(key: string, follower: Follower, lastSeq: number, events: ChatStreamEvent[]) {
    const firstSeq = lastSeq - events.length + 1;
    // Trimmed by MAXLEN before this follower read it: ending beats a gap.
    if (firstSeq > follower.lastSeq + 1) return finish(follower, key);
    for (let i = follower.lastSeq + 1 - firstSeq; i < events.length; i++) {
      const event = events[i]!;
      follower.lastSeq = firstSeq + i;
      follower.queue.push({ id: `${follower.replyId}-${follower.lastSeq}`, event });
      if (isTerminalEvent(event)) return finish(follower, key);
    }
    follower.lastEventAt = now();
    follower.wake?.();
  }

  function openReader() {
    const connection = duplicateRedis(redis, {
      log,
      name: 'reply-events',
      // The BLOCK bounds the call, plus a grace period; a lost connection fails it at once, not after a retry.
      overrides: { commandTimeout: undefined, blockingTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 0 },
    });
    connection.on('close', () => (readerId = undefined));
    return connection;
  }

  async function read() {
    reader ??= openReader();
    while (followers.size > 0) {
      try {
        if (!(await whenReady(reader, REDIS_COMMAND_TIMEOUT_MS))) throw new Error('Redis is not reachable');
        readerId ??= Number(await reader.client('ID'));
        // Every follower may have gone while the connection got ready (a client that left at once): an XREAD of
        // no stream is a syntax error, whose catch below would end the followers that came meanwhile.
        if (followers.size === 0) break;
        const keys = [...followers.keys()];
        const from = keys.map((key) => `0-${Math.min(...[...followers.get(key)!].map((f) => f.lastSeq))}`);
        generation++;
        blocked = true;
        const result = await reader.xread('COUNT', 1000, 'BLOCK', blockMs, 'STREAMS', ...keys, ...from);
        blocked = false;
        fallback.succeeded();
        for (const [key, entries] of result ?? []) {
          for (const [id, fields] of entries) {
            const events = JSON.parse(fields[1]!) as ChatStreamEvent[];
            for (const follower of followers.get(key) ?? []) deliver(key, follower, Number(id.slice(2)), events);
          }
        }
      } catch (err) {
        blocked = false;
        fallback.failed(err);
        // Their clients reconnect, and meanwhile find the checkpointed message.
        finishAll(() => true);
      }
      const readAt = now();
      finishAll((follower) => readAt - follower.lastEventAt > idleMs);
    }
  }

  async function interrupt() {
    const current = generation;
    for (let attempt = 0; attempt < 10 && blocked && generation === current && readerId !== undefined; attempt++) {
      // 0 when the XREAD has not reached Redis yet (it travels on the other connection): try again shortly, in
      // real time since the wait is for Redis.
      if ((await redis.client('UNBLOCK', readerId).catch(() => 1)) === 1) return;
      await sleep(10);
    }
  }

  return {
    /** The events of the stream `key` after `afterSeq`, as they come, until the reply ends or the signal aborts. */
    async *follow(key: string, replyId: string, afterSeq: number, signal: AbortSignal) {
      const follower: Follower = {
        replyId,
        lastSeq: afterSeq,
        queue: [],
        wake: undefined,
        finished: false,
        lastEventAt: now(),
      };
      const set = followers.get(key) ?? new Set();
      followers.set(key, set.add(follower));
      if (reading) void interrupt();
      else reading = read().finally(() => (reading = undefined));
      const onAbort = () => finish(follower, key);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        while (!signal.aborted) {
          const ready = follower.queue;
          follower.queue = [];
          for (const entry of ready) {
            yield entry;
            if (signal.aborted) return;
          }
          if (follower.finished && follower.queue.length === 0) return;
          await new Promise<void>((resolve) => (follower.wake = resolve));
          follower.wake = undefined;
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
        finish(follower, key);
      }
    },
    /** Ends every follower and the reading connection. */
    async close() {
      finishAll(() => true);
      await interrupt();
      await reading;
      reader?.disconnect();
    },
  };
}
