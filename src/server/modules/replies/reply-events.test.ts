import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@shared/contracts/chat';
import { recordingLogger, redisTestSpace, startRedisProxy } from '../../../../tests/support/redis';
import { redisReplyEvents, type RedisReplyEventsOptions } from './redis-reply-events';
import { inProcessReplyEvents, parseReplyEventId, type ReplyEventEntry, type ReplyEvents } from './reply-events';

const silent = pino({ level: 'silent' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redisEvents(
  space: ReturnType<typeof redisTestSpace>,
  options: Partial<RedisReplyEventsOptions> & { url?: string } = {},
) {
  const redis = await space.connect(options.url, options.log);
  const events = redisReplyEvents(redis, { log: silent, keyPrefix: space.prefix, ...options });
  cleanups.push(() => events.close());
  return { redis, events };
}

function newSpace() {
  const space = redisTestSpace();
  cleanups.push(space.cleanup);
  return space;
}

/** Where the reply is written, and where a reconnecting client follows it (the same or another instance). */
interface Pair {
  writer: ReplyEvents;
  reader: ReplyEvents;
}

const delta = (n: number): ChatStreamEvent => ({ event: 'delta', data: { text: `token ${n} ` } });
const done: ChatStreamEvent = { event: 'done', data: null };
/** 41 deltas, then done: 42 events. */
const reply: ChatStreamEvent[] = [...Array.from({ length: 41 }, (_, i) => delta(i + 1)), done];
const ids = (replyId: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${replyId}-${from + i}`);

async function collect(iterable: AsyncIterable<ReplyEventEntry>) {
  const entries: ReplyEventEntry[] = [];
  for await (const entry of iterable) entries.push(entry);
  return entries;
}

const follow = (events: ReplyEvents, conversationId: number, after?: string, signal = new AbortController().signal) =>
  collect(events.follow(conversationId, { after, signal }));

/** Writes the reply with pauses, as a model does, so followers see it live. */
async function writeSlowly(events: ReplyEvents, conversationId: number, replyId: string, list = reply) {
  const writer = events.open(conversationId, replyId);
  for (const [i, event] of list.entries()) {
    writer.append(event);
    if (i % 5 === 0) await sleep(10);
  }
  writer.end();
}

// `local`: the reader is the writer's instance, which drops a reply's deltas once it has ended (and Redis has it).
describe.each([
  [
    'in process',
    true,
    async (): Promise<Pair> => ((events) => ({ writer: events, reader: events }))(inProcessReplyEvents()),
  ],
  [
    'Redis, one instance',
    true,
    async (): Promise<Pair> => {
      const { events } = await redisEvents(newSpace());
      return { writer: events, reader: events };
    },
  ],
  [
    'Redis, two instances',
    false,
    async (): Promise<Pair> => {
      const space = newSpace();
      return { writer: (await redisEvents(space)).events, reader: (await redisEvents(space)).events };
    },
  ],
])('reply events, %s', (_name, local, create) => {
  it('numbers events from 1 per reply, synchronously', async () => {
    const { writer } = await create();
    const out = writer.open(5, 'r1');
    expect([out.append(reply[0]!), out.append(delta(1))]).toEqual(['r1-1', 'r1-2']);
    out.end();
  });

  it('replays a finished reply from any event without gap or duplicate (but its deltas, on its instance)', async () => {
    const { writer, reader } = await create();
    const written: ChatStreamEvent[] = [reply[0]!, { event: 'sources', data: { sources: [] } }, ...reply.slice(1)];
    await writeSlowly(writer, 5, 'r1', written);
    await sleep(50);
    const all = written.map((event, i) => ({ id: `r1-${i + 1}`, event }));
    const kept = local ? all.filter((entry) => entry.event.event !== 'delta') : all;
    expect(await follow(reader, 5)).toEqual(kept);
    for (const after of [0, 1, 2, 17, 42]) {
      expect((await follow(reader, 5, `r1-${after}`)).map((entry) => entry.id)).toEqual(
        kept.map((entry) => entry.id).filter((id) => Number(id.slice(3)) > after),
      );
    }
    expect(await follow(reader, 5, 'r1-43')).toEqual([]);
    expect(await reader.current(5)).toEqual({ replyId: 'r1' });
  });

  it('follows a running reply live, from the start or from where the client was, to its end', async () => {
    const { writer, reader } = await create();
    const out = writer.open(5, 'r1');
    for (const event of reply.slice(0, 10)) out.append(event);
    await sleep(60);
    const followers = [follow(reader, 5), follow(reader, 5, 'r1-4'), follow(reader, 5, 'r1-10')];
    await sleep(30);
    for (const [i, event] of reply.slice(10).entries()) {
      out.append(event);
      if (i % 4 === 0) await sleep(5);
    }
    out.end();
    const [all, from4, from10] = await Promise.all(followers);
    expect(all!.map((entry) => entry.id)).toEqual(ids('r1', 1, 42));
    expect(all!.map((entry) => entry.event)).toEqual(reply);
    expect(from4!.map((entry) => entry.id)).toEqual(ids('r1', 5, 42));
    expect(from10!.map((entry) => entry.id)).toEqual(ids('r1', 11, 42));
  });

  it('has nothing for a conversation without a reply or an id it did not make', async () => {
    const { writer, reader } = await create();
    await writeSlowly(writer, 5, 'r1');
    await sleep(50);
    expect(await follow(reader, 6)).toEqual([]);
    expect(await reader.current(6)).toBeNull();
    expect(await follow(reader, 5, 'r9-3')).toEqual([]);
    expect(await follow(reader, 6, 'r1-3')).toEqual([]);
    expect(await follow(reader, 5, 'nonsense')).toEqual([]);
  });

  it('follows the latest reply by default, and an earlier one when the client names it', async () => {
    const { writer, reader } = await create();
    await writeSlowly(writer, 5, 'r1');
    await writeSlowly(writer, 5, 'r2', [delta(1), delta(2), done]);
    await sleep(50);
    expect((await follow(reader, 5)).map((entry) => entry.id)).toEqual(local ? ['r2-3'] : ids('r2', 1, 3));
    expect((await follow(reader, 5, 'r1-40')).map((entry) => entry.id)).toEqual(local ? ['r1-42'] : ids('r1', 41, 42));
    expect(await reader.current(5)).toEqual({ replyId: 'r2' });
  });

  it('stops following when the client goes away', async () => {
    const { writer, reader } = await create();
    const out = writer.open(5, 'r1');
    out.append(reply[0]!);
    await sleep(50);
    const gone = new AbortController();
    const received: string[] = [];
    const following = (async () => {
      for await (const entry of reader.follow(5, { signal: gone.signal })) received.push(entry.id);
    })();
    await sleep(50);
    gone.abort();
    await following;
    expect(received).toEqual(['r1-1']);
    out.end();
  });
});

describe('Redis reply events across instances', () => {
  it('batches writes: a reply of 42 events is a few stream entries, kept for keepMs after the last', async () => {
    const space = newSpace();
    const { events, redis } = await redisEvents(space, { keepMs: 5000 });
    const out = events.open(5, 'r1');
    for (const event of reply) out.append(event);
    out.end();
    await sleep(80);
    expect(await redis.xlen(`${space.prefix}reply-events:5:r1`)).toBe(1);
    expect(await redis.pttl(`${space.prefix}reply-events:5:r1`)).toBeGreaterThan(4000);
    expect(await redis.get(`${space.prefix}reply-events:5`)).toBe('r1');
  });

  it('ends a follower when the instance writing the reply died', async () => {
    const space = newSpace();
    const a = await redisEvents(space);
    const b = await redisEvents(space, { idleMs: 300, blockMs: 100 });
    const out = a.events.open(5, 'r1');
    out.append(reply[0]!);
    await sleep(60);
    const started = Date.now();
    expect((await follow(b.events, 5)).map((entry) => entry.id)).toEqual(['r1-1']);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('keeps events written while Redis is away and stores them when it is back, with one warning', async () => {
    const space = newSpace();
    const proxy = await startRedisProxy();
    cleanups.push(proxy.close);
    const { log, warnings } = recordingLogger();
    const a = await redisEvents(space, { url: proxy.url, log });
    const b = await redisEvents(space);

    const out = a.events.open(5, 'r1');
    for (const event of reply.slice(0, 10)) out.append(event);
    await sleep(60);
    proxy.cut();
    await sleep(20);
    for (const event of reply.slice(10, 30)) out.append(event);
    await sleep(100);
    // Followers on the writing instance are served from memory meanwhile; elsewhere they stop at the outage.
    const local = new AbortController();
    const onA = collect(a.events.follow(5, { after: 'r1-20', signal: local.signal }));
    expect(warnings().filter((line) => line.startsWith('Redis unavailable'))).toEqual([
      'Redis unavailable: resuming replies falls back to this instance only',
    ]);

    proxy.restore();
    for (const event of reply.slice(30)) out.append(event);
    out.end();
    expect((await onA).map((entry) => entry.id)).toEqual(ids('r1', 21, 42));
    const deadline = Date.now() + 5000;
    let fromB: ReplyEventEntry[] = [];
    while (fromB.length < 42 && Date.now() < deadline) {
      await sleep(100);
      fromB = await follow(b.events, 5);
    }
    expect(fromB.map((entry) => entry.id)).toEqual(ids('r1', 1, 42));
  });

  it('ends a follower on another instance quickly while Redis is away', async () => {
    const space = newSpace();
    const proxy = await startRedisProxy();
    cleanups.push(proxy.close);
    const a = await redisEvents(space);
    const b = await redisEvents(space, { url: proxy.url });
    const out = a.events.open(5, 'r1');
    out.append(reply[0]!);
    await sleep(60);
    const following = follow(b.events, 5);
    await sleep(100);
    proxy.cut();
    const started = Date.now();
    expect((await following).map((entry) => entry.id)).toEqual(['r1-1']);
    expect(Date.now() - started).toBeLessThan(2500);
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
