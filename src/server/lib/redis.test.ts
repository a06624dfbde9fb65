import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { recordingLogger, startRedisProxy } from '../../../tests/support/redis';
import { connectRedis } from './redis';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('fails calls at once while Redis is away, logs the outage once, and reconnects by itself', async () => {
  const proxy = await startRedisProxy();
  cleanups.push(proxy.close);
  const { log, lines } = recordingLogger();
  const redis = await connectRedis(proxy.url, { log, name: 'main' });
  cleanups.push(() => redis.disconnect());
  expect(await redis.ping()).toBe('PONG');

  proxy.cut();
  await sleep(1200); // several reconnection attempts
  const started = Date.now();
  await expect(redis.ping()).rejects.toThrow();
  expect(Date.now() - started).toBeLessThan(50);
  expect(lines.map((line) => line.msg)).toEqual(['Redis connection "main" lost; retrying in the background']);

  proxy.restore();
  const deadline = Date.now() + 8000;
  while (redis.status !== 'ready' && Date.now() < deadline) await sleep(50);
  expect(await redis.ping()).toBe('PONG');
  expect(lines.map((line) => line.msg)).toEqual([
    'Redis connection "main" lost; retrying in the background',
    'Redis connection "main" is back',
  ]);
});

it('does not hold start-up when Redis is away', async () => {
  const { log } = recordingLogger();
  const started = Date.now();
  // Nothing listens on port 1.
  const redis = await connectRedis('redis://127.0.0.1:1', { log, name: 'main' });
  cleanups.push(() => redis.disconnect());
  expect(Date.now() - started).toBeLessThan(2500);
  await expect(redis.ping()).rejects.toThrow();
});
