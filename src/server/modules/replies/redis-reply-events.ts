import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ChatStreamEvent } from '@shared/contracts/chat';
import { redisFallbackLog } from '../../lib/redis';
import { systemTimers, type Timers } from '../../lib/timers';
import { redisEventBatches, type Outgoing } from './redis-event-batches';
import { redisEventFollowers } from './redis-event-followers';
import { isTerminalEvent, parseReplyEventId, REPLY_EVENTS_KEEP_MS, ReplyLogs, type ReplyEvents } from './reply-events';

export interface RedisReplyEventsOptions {
  log: FastifyBaseLogger;
  /** Starts every key, so several deployments (or parallel tests) can share one Redis. */
  keyPrefix?: string;
  /** How long a reply's events stay after its last write. */
  keepMs?: number;
  /** Events wait at most this long before they go to Redis, all running replies in one call. */
  flushMs?: number;
  /** Cap on a reply's stream, in batches (a reply of two minutes writes about 5,000 at 25 ms). */
  maxBatches?: number;
  /**
   * A follower on another instance gives up after this long without an event: the instance writing the
   * reply died (a live reply ends by its own timeouts well within it). Its client reconnects and finds the
   * saved message.
   */
  idleMs?: number;
  /** Bound on one blocking read; a reader checks for idle followers at least this often. */
  blockMs?: number;
  /**
   * The clock of keep-times, refreshes and idle followers, and the timers of batches and of forgetting ended
   * replies; a test's move by hand. Redis's own waits (a blocking read, a reconnection) stay in real time.
   */
  timers?: Timers;
}

// The end of a reply whose writer died, after its last stored batch, unless that batch already ended it.
const APPEND_END = `local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if not last then return 0 end
local events = cjson.decode(last[2][2])
local kind = events[#events].event
if kind == 'done' or kind == 'error' then return 0 end
redis.call('XADD', KEYS[1], '0-' .. (tonumber(string.sub(last[1], 3)) + 1), 'e', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Reply events shared through Redis Streams. A reply's events are kept in memory, where followers on this
 * instance read them, and copied to a stream per reply (`<prefix>reply-events:<conversation>:<reply>`; its
 * entries are batches with id `0-<seq of the last event>`), which followers on other instances read with one
 * blocking XREAD per instance. `<prefix>reply-events:<conversation>` names the conversation's latest reply.
 * Appending costs no Redis call: batches leave every `flushMs` in one script call, failed ones again later
 * (redis-event-batches.ts); followers of replies written elsewhere share one reader (redis-event-followers.ts).
 */
export function redisReplyEvents(redis: Redis, options: RedisReplyEventsOptions): ReplyEvents {
  const {
    log,
    keyPrefix = 'botty:',
    keepMs = REPLY_EVENTS_KEEP_MS,
    flushMs = 25,
    maxBatches = 10_000,
    idleMs = 120_000,
    blockMs = 2000,
    timers = systemTimers,
  } = options;
  const now = () => timers.now().getTime();
  const pointerKey = (conversationId: number) => `${keyPrefix}reply-events:${conversationId}`;
  const streamKey = (conversationId: number, replyId: string) =>
    `${keyPrefix}reply-events:${conversationId}:${replyId}`;
  const fallback = redisFallbackLog(log, 'resuming replies');
  const logs = new ReplyLogs(keepMs, timers);

  const batches = redisEventBatches(redis, { keepMs, flushMs, maxBatches, timers, fallback });
  const followers = redisEventFollowers(redis, { log, idleMs, blockMs, timers, fallback });

  /** The conversation's latest reply: Redis knows it across instances, this instance when Redis is away. */
  async function latestReplyId(conversationId: number) {
    // A reply running here is the latest: the registry lets one run per conversation.
    const local = logs.get(conversationId);
    if (local && !local.ended) return local.replyId;
    try {
      const replyId = await redis.get(pointerKey(conversationId));
      fallback.succeeded();
      if (replyId !== null) return replyId;
    } catch (err) {
      fallback.failed(err);
    }
    return logs.get(conversationId)?.replyId;
  }

  return {
    open(conversationId, replyId) {
      const outgoing: Outgoing = {
        log: logs.open(conversationId, replyId),
        streamKey: streamKey(conversationId, replyId),
        pointerKey: pointerKey(conversationId),
        storedSeq: 0,
        refreshedAt: 0,
        queued: false,
        endedAt: undefined,
      };
      return {
        append(event) {
          const id = outgoing.log.append(event);
          if (!outgoing.queued) batches.enqueue(outgoing, flushMs);
          return id;
        },
        end() {
          outgoing.endedAt = now();
          logs.end(outgoing.log);
          batches.enqueue(outgoing, 0);
        },
      };
    },

    async *follow(conversationId, { after, signal }) {
      const position = after === undefined ? undefined : parseReplyEventId(after);
      if (position === null) return;
      const replyId = position?.replyId ?? (await latestReplyId(conversationId));
      if (replyId === undefined) return;
      const afterSeq = position?.seq ?? 0;
      const local = logs.get(conversationId, replyId);
      if (local) return yield* local.follow(afterSeq, signal);
      const key = streamKey(conversationId, replyId);
      try {
        const [last] = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
        fallback.succeeded();
        if (!last) return;
        // The client already has the end of the reply.
        const events = JSON.parse(last[1][1]!) as ChatStreamEvent[];
        if (Number(last[0].slice(2)) <= afterSeq && isTerminalEvent(events.at(-1)!)) return;
      } catch (err) {
        fallback.failed(err);
        return;
      }
      yield* followers.follow(key, replyId, afterSeq, signal);
    },

    async current(conversationId) {
      const replyId = await latestReplyId(conversationId);
      return replyId === undefined ? null : { replyId };
    },

    async interrupt(conversationId, replyId, event) {
      if (logs.get(conversationId, replyId)) return;
      try {
        await redis.eval(APPEND_END, 1, streamKey(conversationId, replyId), JSON.stringify([event]), keepMs);
        fallback.succeeded();
      } catch (err) {
        // Followers give up after idleMs; a client asking again meanwhile is answered from the database.
        fallback.failed(err);
      }
    },

    async close() {
      await batches.close();
      await followers.close();
    },
  };
}
