import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ChatStreamEvent } from '@shared/contracts/chat';
import { duplicateRedis, REDIS_COMMAND_TIMEOUT_MS, redisFallbackLog, whenReady } from '../../lib/redis';
import { systemTimers, type Timer, type Timers } from '../../lib/timers';
import {
  isTerminalEvent,
  parseReplyEventId,
  REPLY_EVENTS_KEEP_MS,
  ReplyLogs,
  type ReplyEventEntry,
  type ReplyEvents,
  type ReplyLog,
} from './reply-events';

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

/** One reply written on this instance, on its way to Redis. */
interface Outgoing {
  log: ReplyLog;
  streamKey: string;
  pointerKey: string;
  /** Events up to this seq are in Redis. */
  storedSeq: number;
  /** When the stream's expiry and the conversation's pointer were last set (0: never). */
  refreshedAt: number;
  queued: boolean;
  endedAt: number | undefined;
}

/** A client on this instance following a reply written elsewhere. */
interface Follower {
  replyId: string;
  lastSeq: number;
  queue: ReplyEventEntry[];
  wake: (() => void) | undefined;
  finished: boolean;
  lastEventAt: number;
}

const RETRY_MS = 1000;

// One call per flush whatever the number of running replies: per reply, its batch as one stream entry and,
// when due, the expiry of its stream and the conversation's pointer to it. XADD's "equal or smaller" error
// means an earlier attempt was stored though its answer was lost.
const APPEND_BATCHES = `local stored = {}
for i = 1, #KEYS / 2 do
  local stream, pointer, a = KEYS[2 * i - 1], KEYS[2 * i], 2 + 4 * (i - 1)
  local added = redis.pcall('XADD', stream, 'MAXLEN', '~', ARGV[1], ARGV[a + 1], 'e', ARGV[a + 2])
  stored[i] = (type(added) ~= 'table' or string.find(added.err, 'equal or smaller', 1, true)) and 1 or 0
  if ARGV[a + 4] == '1' then
    redis.call('PEXPIRE', stream, ARGV[2])
    redis.call('SET', pointer, ARGV[a + 3], 'PX', ARGV[2])
  end
end
return stored`;

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
 * Appending costs no Redis call: batches leave every `flushMs` in one script call, failed ones again later.
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

  // ---- Writing: batches of every running reply in one call, one call at a time (so a retry never overtakes
  // a batch), each batch repeated until Redis has it.
  const queue: Outgoing[] = [];
  let timer: Timer | undefined;
  let timerDue = 0;
  let flushing: Promise<void> | undefined;
  let retryAt = 0;

  function enqueue(outgoing: Outgoing, delay: number) {
    if (!outgoing.queued) {
      outgoing.queued = true;
      queue.push(outgoing);
    }
    if (flushing) return;
    const due = Math.max(now() + delay, retryAt);
    if (timer && timerDue <= due) return;
    timers.clearTimeout(timer);
    timerDue = due;
    // The flush's promise goes back to the timer, which a test's timers wait for (lib/timers.ts).
    timer = timers.setTimeout(() => flush(), due - now());
  }

  function flush() {
    timer = undefined;
    flushing = writeBatches(queue.splice(0)).finally(() => {
      flushing = undefined;
      const next = queue[0];
      if (next) enqueue(next, flushMs);
    });
    return flushing;
  }

  async function writeBatches(batch: Outgoing[]) {
    const keys: string[] = [];
    const args: (string | number)[] = [maxBatches, keepMs];
    const sent: { outgoing: Outgoing; upTo: number; refresh: boolean }[] = [];
    const startedAt = now();
    for (const outgoing of batch) {
      outgoing.queued = false;
      const { events, replyId } = outgoing.log;
      const upTo = events.length;
      if (upTo === outgoing.storedSeq) continue;
      const refresh = outgoing.endedAt !== undefined || startedAt - outgoing.refreshedAt > keepMs / 4;
      sent.push({ outgoing, upTo, refresh });
      keys.push(outgoing.streamKey, outgoing.pointerKey);
      args.push(`0-${upTo}`, JSON.stringify(events.slice(outgoing.storedSeq, upTo)), replyId, refresh ? 1 : 0);
    }
    if (sent.length === 0) return;
    let stored: number[] = [];
    let failure: unknown;
    try {
      stored = (await redis.eval(APPEND_BATCHES, keys.length, ...keys, ...args)) as number[];
    } catch (err) {
      failure = err;
    }
    sent.forEach(({ outgoing, upTo, refresh }, i) => {
      if (stored[i] === 1) {
        outgoing.storedSeq = Math.max(outgoing.storedSeq, upTo);
        if (refresh) outgoing.refreshedAt = startedAt;
        // Redis has the whole reply: other instances replay it from there, this one needs no deltas any more.
        if (outgoing.endedAt !== undefined && outgoing.storedSeq === outgoing.log.events.length) {
          outgoing.log.dropDeltas();
        }
        // Given up when even this instance no longer keeps the reply.
      } else if (outgoing.endedAt === undefined || startedAt - outgoing.endedAt < keepMs) {
        enqueue(outgoing, RETRY_MS);
      }
    });
    if (failure || stored.includes(0)) {
      retryAt = now() + RETRY_MS;
      fallback.failed(failure ?? new Error('Redis refused a batch of reply events'));
    } else {
      fallback.succeeded();
    }
  }

  // ---- Following replies written on other instances: one blocking XREAD for all of them, interrupted
  // (CLIENT UNBLOCK) when a follower joins, so the new stream is read at once.
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

  async function* followRemote(key: string, replyId: string, afterSeq: number, signal: AbortSignal) {
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
  }

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
          if (!outgoing.queued) enqueue(outgoing, flushMs);
          return id;
        },
        end() {
          outgoing.endedAt = now();
          logs.end(outgoing.log);
          enqueue(outgoing, 0);
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
      yield* followRemote(key, replyId, afterSeq, signal);
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
      timers.clearTimeout(timer);
      await flushing;
      if (queue.length > 0) await flush();
      finishAll(() => true);
      await interrupt();
      await reading;
      reader?.disconnect();
    },
  };
}
