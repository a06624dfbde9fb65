import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@shared/contracts/chat';
import { REDIS_DEGRADED_MEANING } from '../../lib/redis';
import { manualTime } from '../../../../tests/support/manual-time';
import {
  cleanupsAfterEach,
  recordingLogger,
  type redisTestSpace,
  startRedisProxy,
} from '../../../../tests/support/redis';
import { until } from '../../../../tests/support/wait';
import { redisReplyEvents, type RedisReplyEventsOptions } from './redis-reply-events';
import { inProcessReplyEvents, parseReplyEventId, type ReplyEventEntry, type ReplyEvents } from './reply-events';

const silent = pino({ level: 'silent' });
const cleanups = cleanupsAfterEach();

/** How long events wait before they go to Redis (the default); the tests' clocks move by it to let them go. */
const FLUSH_MS = 25;

async function redisEvents(
  space: ReturnType<typeof redisTestSpace>,
  options: Partial<RedisReplyEventsOptions> & { url?: string } = {},
) {
  const redis = await space.connect(options.url, options.log);
  const events = redisReplyEvents(redis, { log: silent, keyPrefix: space.prefix, flushMs: FLUSH_MS, ...options });
  cleanups.add(() => events.close());
  return { redis, events };
}

/** Where the reply is written, and where a reconnecting client follows it (the same or another instance). */
interface Pair {
  writer: ReplyEvents;
  reader: ReplyEvents;
  /** Lets what the writer appended leave (Redis: its batch timer, moved by hand) and waits until it is stored. */
  flush(): Promise<void>;
}

/** Both instances of a pair share one clock, moved by hand: batches leave when the test says so. */
async function redisPair(instances: 1 | 2): Promise<Pair> {
  const space = cleanups.redisSpace();
  const time = manualTime();
  const { events: writer } = await redisEvents(space, { timers: time });
  const reader = instances === 1 ? writer : (await redisEvents(space, { timers: time })).events;
  return { writer, reader, flush: () => time.advance(FLUSH_MS) };
}

const delta = (n: number): ChatStreamEvent => ({ event: 'delta', data: { text: `token ${n} ` } });
const done: ChatStreamEvent = { event: 'done', data: null };
/** 41 deltas, then done: 42 events. */
const reply: ChatStreamEvent[] = [...Array.from({ length: 41 }, (_, i) => delta(i + 1)), done];
const ids = (replyId: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${replyId}-${from + i}`);
const idsOf = (entries: ReplyEventEntry[]) => entries.map((entry) => entry.id);

async function collect(iterable: AsyncIterable<ReplyEventEntry>) {
  const entries: ReplyEventEntry[] = [];
  for await (const entry of iterable) entries.push(entry);
  return entries;
}

const follow = (events: ReplyEvents, conversationId: number, after?: string, signal = new AbortController().signal) =>
  collect(events.follow(conversationId, { after, signal }));

/** A client following a reply: what it has received so far, and everything once the stream ended. */
function following(events: ReplyEvents, conversationId: number, after?: string, signal = new AbortController().signal) {
  const received: ReplyEventEntry[] = [];
  const ended = (async () => {
    for await (const entry of events.follow(conversationId, { after, signal })) received.push(entry);
    return received;
  })();
  return { received, ended };
}

/** Writes the reply five events at a time, each batch stored before the next, as a model's tokens arrive. */
async function writeInBatches(pair: Pair, conversationId: number, replyId: string, list = reply) {
  const writer = pair.writer.open(conversationId, replyId);
  for (const [i, event] of list.entries()) {
    writer.append(event);
    if (i % 5 === 4) await pair.flush();
  }
  writer.end();
  await pair.flush();
}

// `local`: the reader is the writer's instance, which drops a reply's deltas once it has ended (and Redis has it).
describe.each([
  [
    'in process',
    true,
    async (): Promise<Pair> => {
      const events = inProcessReplyEvents();
      return { writer: events, reader: events, flush: async () => {} };
    },
  ],
  ['Redis, one instance', true, () => redisPair(1)],
  ['Redis, two instances', false, () => redisPair(2)],
])('reply events, %s', (_name, local, create) => {
  it('numbers events from 1 per reply, synchronously', async () => {
    const { writer } = await create();
    const out = writer.open(5, 'r1');
    expect([out.append(reply[0]!), out.append(delta(1))]).toEqual(['r1-1', 'r1-2']);
    out.end();
  });

  it('replays a finished reply from any event without gap or duplicate (but its deltas, on its instance)', async () => {
    const pair = await create();
    const { reader } = pair;
    const written: ChatStreamEvent[] = [reply[0]!, { event: 'sources', data: { sources: [] } }, ...reply.slice(1)];
    await writeInBatches(pair, 5, 'r1', written);
    const all = written.map((event, i) => ({ id: `r1-${i + 1}`, event }));
    const kept = local ? all.filter((entry) => entry.event.event !== 'delta') : all;
    expect(await follow(reader, 5)).toEqual(kept);
    for (const after of [0, 1, 2, 5, 17, 42]) {
      expect(idsOf(await follow(reader, 5, `r1-${after}`))).toEqual(
        idsOf(kept).filter((id) => Number(id.slice(3)) > after),
      );
    }
    expect(await follow(reader, 5, 'r1-43')).toEqual([]);
    expect(await reader.current(5)).toEqual({ replyId: 'r1' });
  });

  it('follows a running reply live, from the start or from where the client was, to its end', async () => {
    const { writer, reader, flush } = await create();
    const out = writer.open(5, 'r1');
    for (const event of reply.slice(0, 10)) out.append(event);
    await flush();
    const clients = [following(reader, 5), following(reader, 5, 'r1-4'), following(reader, 5, 'r1-10')];
    // Each batch reaches every client while the reply runs, before the next is written.
    const reached = (seq: number) => clients.every(({ received }) => (received.at(-1)?.id ?? 'r1-10') === `r1-${seq}`);
    await until(() => reached(10), { what: 'the clients to catch up' });
    for (let from = 10; from < reply.length; from += 4) {
      for (const event of reply.slice(from, from + 4)) out.append(event);
      await flush();
      await until(() => reached(Math.min(from + 4, reply.length)), { what: `events ${from + 1}… live` });
    }
    out.end();
    const [all, from4, from10] = await Promise.all(clients.map(({ ended }) => ended));
    expect(idsOf(all!)).toEqual(ids('r1', 1, 42));
    expect(all!.map((entry) => entry.event)).toEqual(reply);
    expect(idsOf(from4!)).toEqual(ids('r1', 5, 42));
    expect(idsOf(from10!)).toEqual(ids('r1', 11, 42));
  });

  it('has nothing for a conversation without a reply or an id it did not make', async () => {
    const pair = await create();
    const { reader } = pair;
    await writeInBatches(pair, 5, 'r1');
    expect(await follow(reader, 6)).toEqual([]);
    expect(await reader.current(6)).toBeNull();
    expect(await follow(reader, 5, 'r9-3')).toEqual([]);
    expect(await follow(reader, 6, 'r1-3')).toEqual([]);
    expect(await follow(reader, 5, 'nonsense')).toEqual([]);
  });

  it('follows the latest reply by default, and an earlier one when the client names it', async () => {
    const pair = await create();
    const { reader } = pair;
    await writeInBatches(pair, 5, 'r1');
    await writeInBatches(pair, 5, 'r2', [delta(1), delta(2), done]);
    expect(idsOf(await follow(reader, 5))).toEqual(local ? ['r2-3'] : ids('r2', 1, 3));
    expect(idsOf(await follow(reader, 5, 'r1-40'))).toEqual(local ? ['r1-42'] : ids('r1', 41, 42));
    expect(await reader.current(5)).toEqual({ replyId: 'r2' });
  });

  it('stops following when the client goes away', async () => {
    const { writer, reader, flush } = await create();
    const out = writer.open(5, 'r1');
    out.append(reply[0]!);
    await flush();
    const gone = new AbortController();
    const client = following(reader, 5, undefined, gone.signal);
    await until(() => client.received.length === 1, { what: 'the first event' });
    gone.abort();
    expect(idsOf(await client.ended)).toEqual(['r1-1']);
    out.end();
  });
});

describe('in-process reply events over time', () => {
  it('forgets a reply keepMs after its end, not before, nor while it runs', async () => {
    const time = manualTime();
    const events = inProcessReplyEvents({ keepMs: 60_000, timers: time });
    const out = events.open(5, 'r1');
    out.append({ event: 'sources', data: { sources: [] } });
    await time.advance(120_000);
    expect(await events.current(5)).toEqual({ replyId: 'r1' });
    out.append(done);
    out.end();
    await time.advance(59_999);
    expect(idsOf(await follow(events, 5, 'r1-0'))).toEqual(['r1-1', 'r1-2']);
    await time.advance(1);
    expect(await events.current(5)).toBeNull();
    expect(await follow(events, 5, 'r1-0')).toEqual([]);
  });
});

describe('Redis reply events across instances', () => {
  it('batches writes: a reply of 42 events is one stream entry, kept for keepMs after the last', async () => {
    const space = cleanups.redisSpace();
    const time = manualTime();
    const { events, redis } = await redisEvents(space, { keepMs: 5000, timers: time });
    const out = events.open(5, 'r1');
    for (const event of reply) out.append(event);
    out.end();
    // Appending costs no Redis call: the batch leaves on its timer, at once after the end.
    expect(await redis.exists(`${space.prefix}reply-events:5:r1`)).toBe(0);
    await time.advance(0);
    expect(await redis.xlen(`${space.prefix}reply-events:5:r1`)).toBe(1);
    expect(await redis.pttl(`${space.prefix}reply-events:5:r1`)).toBeGreaterThan(4000);
    expect(await redis.get(`${space.prefix}reply-events:5`)).toBe('r1');
  });

  it("renews a running reply's expiry once a quarter of keepMs has passed, not at every batch", async () => {
    const space = cleanups.redisSpace();
    const time = manualTime();
    const { events, redis } = await redisEvents(space, { keepMs: 60_000, timers: time });
    const keys = [`${space.prefix}reply-events:5:r1`, `${space.prefix}reply-events:5`];
    const ttls = () => Promise.all(keys.map((key) => redis.pttl(key)));
    /** Redis's time runs on with the test's: the expiries come nearer by as much. */
    async function elapse(ms: number) {
      for (const key of keys) await redis.pexpire(key, (await redis.pttl(key)) - ms);
      await time.advance(ms);
    }
    const out = events.open(5, 'r1');
    out.append(reply[0]!);
    await time.advance(FLUSH_MS);
    for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(59_000);
    await elapse(14_000);
    out.append(delta(1));
    await time.advance(FLUSH_MS);
    for (const ttl of await ttls()) expect(ttl).toBeLessThanOrEqual(46_000);
    await elapse(2_000);
    out.append(delta(2));
    await time.advance(FLUSH_MS);
    for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(59_000);
    out.end();
  });

  it('ends a follower when the instance writing the reply died', async () => {
    const space = cleanups.redisSpace();
    const time = manualTime();
    const idleMs = 120_000;
    const a = await redisEvents(space, { timers: time });
    // B checks for idle followers each time its blocking read returns: at the latest after blockMs, which Redis
    // rounds up to its next tick (every 100 ms at its default hz), in real time.
    const b = await redisEvents(space, { timers: time, idleMs, blockMs: 10 });
    const out = a.events.open(5, 'r1');
    out.append(reply[0]!);
    await time.advance(FLUSH_MS);
    const client = following(b.events, 5);
    await until(() => client.received.length === 1, { what: 'the first event on B' });
    // A writes nothing more, as if it had died: B gives up once idleMs has passed without an event.
    await time.advance(idleMs + 1);
    expect(idsOf(await client.ended)).toEqual(['r1-1']);
  });

  it('follows on after a client left before the reading connection was ready, with no warning', async () => {
    const space = cleanups.redisSpace();
    const time = manualTime();
    const recorded = recordingLogger();
    const a = await redisEvents(space, { timers: time });
    const b = await redisEvents(space, { timers: time, log: recorded.log });
    const out = a.events.open(5, 'r1');
    out.append(reply[0]!);
    await time.advance(FLUSH_MS);
    // Gone at once: B starts its blocking connection for this client, which has left before it is ready.
    const gone = new AbortController();
    const left = following(b.events, 5, undefined, gone.signal);
    gone.abort();
    expect(await left.ended).toEqual([]);
    // B's connection gets ready with no one left to read for (it used to read for no stream: a syntax error that
    // counted as Redis failing and ended whoever was following by then).
    await sleep(300);
    const stays = following(b.events, 5);
    await until(() => stays.received.length === 1, { what: 'the first event for the client who stays' });
    out.append(reply[1]!);
    await time.advance(FLUSH_MS);
    await until(() => stays.received.length === 2, { what: 'the next event, live' });
    expect(recorded.warnings()).toEqual([]);
    out.end();
  });

  it('keeps events written while Redis is away and stores them when it is back, with one warning', async () => {
    const space = cleanups.redisSpace();
    const proxy = await startRedisProxy();
    cleanups.add(proxy.close);
    const { log, warnings } = recordingLogger();
    const time = manualTime();
    const a = await redisEvents(space, { url: proxy.url, log, timers: time });
    const b = await redisEvents(space);

    const out = a.events.open(5, 'r1');
    for (const event of reply.slice(0, 10)) out.append(event);
    await time.advance(FLUSH_MS);
    proxy.cut();
    await until(() => a.redis.status !== 'ready', { what: 'A to notice the outage' });
    for (const event of reply.slice(10, 30)) out.append(event);
    await time.advance(FLUSH_MS);
    // Followers on the writing instance are served from memory meanwhile; elsewhere they stop at the outage.
    const local = new AbortController();
    const onA = collect(a.events.follow(5, { after: 'r1-20', signal: local.signal }));
    expect(warnings()).toEqual([`Redis unavailable: ${REDIS_DEGRADED_MEANING}`]);

    proxy.restore();
    for (const event of reply.slice(30)) out.append(event);
    out.end();
    expect(idsOf(await onA)).toEqual(ids('r1', 21, 42));
    await until(() => a.redis.status === 'ready', { what: 'A to reconnect' });
    // The batches kept meanwhile leave with the next retry (a second after the failed one), as A's clock moves on.
    await time.advance(60_000);
    expect(idsOf(await follow(b.events, 5))).toEqual(ids('r1', 1, 42));
  });

  it('ends a follower on another instance quickly while Redis is away', async () => {
    const space = cleanups.redisSpace();
    const proxy = await startRedisProxy();
    cleanups.add(proxy.close);
    const time = manualTime();
    const a = await redisEvents(space, { timers: time });
    const b = await redisEvents(space, { url: proxy.url });
    const out = a.events.open(5, 'r1');
    out.append(reply[0]!);
    await time.advance(FLUSH_MS);
    const client = following(b.events, 5);
    await until(() => client.received.length === 1, { what: 'the first event on B' });
    proxy.cut();
    const started = Date.now();
    expect(idsOf(await client.ended)).toEqual(['r1-1']);
    // Well within the 2 s its blocking read would have waited.
    expect(Date.now() - started).toBeLessThan(1000);
    out.end();
  });
});

describe('parseReplyEventId', () => {
  it('reads the ids the writers make and nothing else', () => {
    expect(parseReplyEventId('42-7')).toEqual({ replyId: '42', seq: 7 });
    expect(parseReplyEventId('a-b-0')).toEqual({ replyId: 'a-b', seq: 0 });
    for (const id of ['', '-1', '42-', '42-01', '42-1.5', '42-x', '42-1e3', '42']) {
      expect(parseReplyEventId(id)).toBeNull();
    }
  });
});
