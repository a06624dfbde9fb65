import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach } from 'vitest';
import { connectRedis } from '../../src/server/lib/redis';
import { startTcpProxy } from './tcp-proxy';

/** The Redis the tests share (see common notes); each test keeps to keys of its own prefix. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface LogLine {
  level: number;
  msg: string;
}

/** A real pino logger whose lines the test can read: warnings are part of the fallback's contract. */
export function recordingLogger() {
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { log, lines, warnings: () => lines.filter((line) => line.level === 40).map((line) => line.msg) };
}

/**
 * Test connections reconnect every 10 ms while Redis is away instead of backing off up to 5 s, so a test that cut
 * Redis (startRedisProxy) waits for the reconnection only as long as it takes; the connections an instance
 * opens from one (its subscriber, its blocking reader) inherit this.
 */
const RECONNECT_AT_ONCE = { retryStrategy: () => 10 };

/**
 * A connection per simulated instance, reconnecting at once after an outage, and a key prefix no other test uses;
 * `cleanup` removes both.
 */
export function redisTestSpace() {
  const prefix = `botty-test:${randomBytes(6).toString('hex')}:`;
  const connections: Redis[] = [];
  return {
    prefix,
    async connect(url = TEST_REDIS_URL, log: FastifyBaseLogger = pino({ level: 'silent' })) {
      const redis = await connectRedis(url, { log, name: 'test', overrides: RECONNECT_AT_ONCE });
      connections.push(redis);
      return redis;
    },
    async cleanup() {
      const admin = await connectRedis(TEST_REDIS_URL, { log: pino({ level: 'silent' }), name: 'test-cleanup' });
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      admin.disconnect();
      for (const redis of connections) redis.disconnect();
    },
  };
}

/**
 * What the tests of a file set up (key spaces, connections, proxies, registries), undone after each test, last
 * first: `add` one, or take a key space of the test's own with `redisSpace`.
 */
export function cleanupsAfterEach() {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    add(cleanup: () => unknown) {
      cleanups.push(cleanup);
    },
    redisSpace() {
      const space = redisTestSpace();
      cleanups.push(space.cleanup);
      return space;
    },
  };
}

/** A TCP proxy to the test Redis, and the URL through it: `cut()` makes Redis go away for that client. */
export async function startRedisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  return Object.assign(proxy, { url: `redis://127.0.0.1:${proxy.port}` });
}
