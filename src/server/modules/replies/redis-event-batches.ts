import type { Redis } from 'ioredis';
import type { RedisFallbackLog } from '../../lib/redis';
import type { Timer, Timers } from '../../lib/timers';
import type { ReplyLog } from './reply-events';

/** One reply written on this instance, on its way to Redis. */
export interface Outgoing {
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

export interface EventBatchesOptions {
  keepMs: number;
  flushMs: number;
  maxBatches: number;
  timers: Timers;
  fallback: RedisFallbackLog;
}

/**
 * The events of the replies written on this instance, copied to their Redis streams: the batches of every running
 * reply in one call, one call at a time (so a retry never overtakes a batch), each batch repeated until Redis has
 * it, or until even this instance no longer keeps its reply.
 */
export function redisEventBatches(redis: Redis, options: EventBatchesOptions) {
  const { keepMs, flushMs, maxBatches, timers, fallback } = options;
  const now = () => timers.now().getTime();
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

  return {
    /** Events were appended (`flushMs`), or the reply ended (0): its batch leaves with the next call. */
    enqueue,
    /** Writes what waits, after the call under way. */
    async close() {
      timers.clearTimeout(timer);
      await flushing;
      if (queue.length > 0) await flush();
    },
  };
}
