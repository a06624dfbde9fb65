import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Timers } from '../../lib/timers';
import { REDIS_DEGRADED_MEANING } from '../../lib/redis';
import { manualTime } from '../../../../tests/support/manual-time';
import {
  cleanupsAfterEach,
  recordingLogger,
  type redisTestSpace,
  startRedisProxy,
} from '../../../../tests/support/redis';
import { until } from '../../../../tests/support/wait';
import { redisReplyRegistry } from './redis-reply-registry';
import { inProcessReplyRegistry, type ReplyRegistry } from './reply-registry';

const silent = pino({ level: 'silent' });
/** A's lock in the tests that move its time by hand, renewed every third of it. */
const LOCK_TTL_MS = 15_000;
const RENEW_MS = LOCK_TTL_MS / 3;
const cleanups = cleanupsAfterEach();

async function redisInstance(
  space: ReturnType<typeof redisTestSpace>,
  options: { url?: string; lockTtlMs?: number; log?: pino.Logger; instanceId?: string; timers?: Timers } = {},
) {
  const redis = await space.connect(options.url, options.log);
  const registry = await redisReplyRegistry(redis, {
    instanceId: options.instanceId ?? 'a',
    lockTtlMs: options.lockTtlMs,
    log: options.log ?? silent,
    keyPrefix: space.prefix,
    timers: options.timers,
  });
  cleanups.add(() => registry.close());
  return { redis, registry };
}

describe.each([
  ['in-process', async () => inProcessReplyRegistry()],
  ['Redis', async () => (await redisInstance(cleanups.redisSpace())).registry],
] satisfies [string, () => Promise<ReplyRegistry>][])('%s reply registry', (_name, create) => {
  it('lets one reply run per conversation until it is released', async () => {
    const registry = await create();
    const claim = await registry.claim(1);
    expect(claim).not.toBeNull();
    expect(await registry.claim(1)).toBeNull();
    expect(await registry.claim(2)).not.toBeNull();
    claim!.release();
    await until(async () => (await registry.claim(1)) !== null, { what: 'the release' });
  });

  it('stops the running reply and says whether there was one', async () => {
    const registry = await create();
    expect(await registry.stop(1)).toBe(false);
    const claim = (await registry.claim(1))!;
    expect(await registry.stop(1)).toBe(true);
    expect(claim.signal.aborted).toBe(true);
    expect(await registry.stop(1)).toBe(false);
  });

  it('stops every reply on shutdown', async () => {
    const registry = await create();
    const claims = [(await registry.claim(1))!, (await registry.claim(2))!];
    await registry.stopAll();
    expect(claims.map((claim) => claim.signal.aborted)).toEqual([true, true]);
  });
});

describe('Redis reply registry across instances', () => {
  it('refuses a second reply on another instance, and allows it once the first is released', async () => {
    const space = cleanups.redisSpace();
    const a = await redisInstance(space, { instanceId: 'a' });
    const b = await redisInstance(space, { instanceId: 'b' });
    const claim = (await a.registry.claim(7))!;
    expect(await b.redis.get(`${space.prefix}reply-lock:7`)).toMatch(/^a:[0-9a-f]{16}$/);
    expect(await b.registry.claim(7)).toBeNull();
    claim.release();
    await until(async () => (await b.registry.claim(7)) !== null, { what: 'the release' });
    expect(await a.registry.claim(7)).toBeNull();
  });

  it('delivers Stop sent to one instance to the instance running the reply', async () => {
    const space = cleanups.redisSpace();
    const a = await redisInstance(space, { instanceId: 'a' });
    const b = await redisInstance(space, { instanceId: 'b' });
    expect(await b.registry.stop(7)).toBe(false);
    const claim = (await a.registry.claim(7))!;
    const aborted = new Promise((resolve) => claim.signal.addEventListener('abort', resolve));
    expect(await b.registry.stop(7)).toBe(true);
    await aborted;
    expect(claim.signal.aborted).toBe(true);
  });

  it('keeps the lock of a long reply by renewing it, and frees it when its owner stops renewing', async () => {
    const space = cleanups.redisSpace();
    const proxy = await proxyToRedis();
    const { log, warnings } = recordingLogger();
    const time = manualTime();
    const a = await redisInstance(space, {
      url: proxy.url,
      lockTtlMs: LOCK_TTL_MS,
      log,
      instanceId: 'a',
      timers: time,
    });
    const b = await redisInstance(space, { lockTtlMs: LOCK_TTL_MS, instanceId: 'b', timers: time });
    const lock = `${space.prefix}reply-lock:7`;
    const tookTheLock = () => warnings().filter((line) => line.includes('Another instance took the lock'));
    /**
     * Time passes for the instances and for Redis alike, a renewal period at a time: the lock's TTL runs down
     * (shortened by hand, the key going when it reaches 0, as Redis expires it), then the renewals fall due.
     */
    async function elapse(ms: number) {
      for (let elapsed = 0; elapsed < ms; elapsed += RENEW_MS) {
        const ttl = await b.redis.pttl(lock);
        if (ttl > RENEW_MS) await b.redis.pexpire(lock, ttl - RENEW_MS);
        else if (ttl > 0) await b.redis.del(lock);
        await time.advance(RENEW_MS);
      }
    }

    const claim = (await a.registry.claim(7))!;
    await elapse(3 * LOCK_TTL_MS);
    expect(await b.registry.claim(7)).toBeNull();
    expect(await b.redis.pttl(lock)).toBeGreaterThan(LOCK_TTL_MS - RENEW_MS);

    // A is cut off from Redis, as if it had died: its lock expires and B may run a reply.
    proxy.cut();
    await until(() => a.redis.status !== 'ready', { what: 'A to notice the outage' });
    await elapse(LOCK_TTL_MS);
    expect(await b.registry.claim(7)).not.toBeNull();
    expect(claim.signal.aborted).toBe(false);

    // Back, A finds the lock taken at its next renewal and says so once, without taking it back.
    proxy.restore();
    await until(() => a.redis.status === 'ready', { what: 'A to reconnect' });
    await elapse(RENEW_MS);
    expect(tookTheLock()).toHaveLength(1);
    await elapse(3 * RENEW_MS);
    expect(tookTheLock()).toHaveLength(1);
    expect(await b.redis.get(lock)).toMatch(/^b:/);
  });

  it('falls back to this instance while Redis is away, with one warning, and shares again when it is back', async () => {
    const space = cleanups.redisSpace();
    const proxy = await proxyToRedis();
    const { log, warnings } = recordingLogger();
    const time = manualTime();
    const a = await redisInstance(space, {
      url: proxy.url,
      lockTtlMs: LOCK_TTL_MS,
      log,
      instanceId: 'a',
      timers: time,
    });
    const b = await redisInstance(space, { instanceId: 'b' });

    proxy.cut();
    await until(() => a.redis.status !== 'ready', { what: 'A to notice the outage' });
    const started = Date.now();
    const claim = (await a.registry.claim(7))!;
    expect(claim).not.toBeNull();
    expect(await a.registry.claim(7)).toBeNull();
    expect(await a.registry.claim(8)).not.toBeNull();
    expect(await a.registry.stop(9)).toBe('unreachable');
    expect(await a.registry.stop(8)).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    // One for the instance, whichever of its connections and components noticed first.
    expect(warnings()).toEqual([`Redis unavailable: ${REDIS_DEGRADED_MEANING}`]);

    // Back: the reply that started during the outage takes its lock at the next renewal, Stop reaches it.
    proxy.restore();
    await until(() => a.redis.status === 'ready', { what: 'A to reconnect' });
    expect(await b.redis.get(`${space.prefix}reply-lock:7`)).toBeNull();
    await time.advance(RENEW_MS);
    expect(await b.redis.get(`${space.prefix}reply-lock:7`)).toMatch(/^a:/);
    expect(await b.registry.claim(7)).toBeNull();
    // A's subscriber reconnects on its own; until it has, B's Stop finds the lock but nobody listening.
    await until(async () => (await b.registry.stop(7)) && claim.signal.aborted, { what: 'Stop to reach A' });
  });

  it('starts with Redis away and joins it when it comes', async () => {
    const space = cleanups.redisSpace();
    const proxy = await proxyToRedis();
    proxy.cut();
    const started = Date.now();
    const a = await redisInstance(space, { url: proxy.url, instanceId: 'a' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await a.registry.claim(1)).not.toBeNull();

    proxy.restore();
    const b = await redisInstance(space, { instanceId: 'b' });
    await until(() => a.redis.status === 'ready');
    expect(await a.registry.claim(2)).not.toBeNull();
    expect(await b.registry.claim(2)).toBeNull();
    const onB = (await b.registry.claim(3))!;
    expect(await a.registry.stop(3)).toBe(true);
    await until(() => onB.signal.aborted);
    // A subscribed to Stop once Redis came: a Stop sent to B reaches A's reply.
    const onA = (await a.registry.claim(4))!;
    await until(async () => (await b.registry.stop(4)) && onA.signal.aborted);
  });
});

async function proxyToRedis() {
  const proxy = await startRedisProxy();
  cleanups.add(proxy.close);
  return proxy;
}
