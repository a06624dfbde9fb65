import { expect, it } from 'vitest';
import { cleanupsAfterEach, recordingLogger, startRedisProxy } from '../../../tests/support/redis';
import { until } from '../../../tests/support/wait';
import { connectRedis, REDIS_DEGRADED_MEANING, subscribeChannel } from './redis';

const cleanups = cleanupsAfterEach();

it('fails calls at once while Redis is away, logs the outage once, and reconnects by itself', async () => {
  const proxy = await startRedisProxy();
  cleanups.add(proxy.close);
  const { log, lines } = recordingLogger();
  // Reconnection attempts every 10 ms instead of backing off from 100 ms: the same path, in less time.
  const redis = await connectRedis(proxy.url, { log, name: 'main', overrides: { retryStrategy: () => 10 } });
  cleanups.add(() => redis.disconnect());
  expect(await redis.ping()).toBe('PONG');
  let attempts = 0;
  redis.on('reconnecting', () => (attempts += 1));

  proxy.cut();
  await until(() => attempts >= 5, { what: 'several reconnection attempts' });
  const started = Date.now();
  await expect(redis.ping()).rejects.toThrow();
  expect(Date.now() - started).toBeLessThan(50);
  expect(lines.map((line) => line.msg)).toEqual([`Redis unavailable: ${REDIS_DEGRADED_MEANING}`]);

  proxy.restore();
  await until(() => redis.status === 'ready', { what: 'the connection to be back', timeoutMs: 8000 });
  expect(await redis.ping()).toBe('PONG');
  expect(lines.map((line) => line.msg)).toEqual([
    `Redis unavailable: ${REDIS_DEGRADED_MEANING}`,
    'Redis available again: limits, Stop, resuming replies and sign-outs are shared again',
  ]);
});

it('does not hold start-up when Redis is away', async () => {
  const { log } = recordingLogger();
  const started = Date.now();
  // Nothing listens on port 1.
  const redis = await connectRedis('redis://127.0.0.1:1', { log, name: 'main' });
  cleanups.add(() => redis.disconnect());
  expect(Date.now() - started).toBeLessThan(2500);
  await expect(redis.ping()).rejects.toThrow();
});

it('subscribes again after a connection that drops as soon as it is ready, without an unhandled rejection', async () => {
  const { log } = recordingLogger();
  const space = cleanups.redisSpace();
  const redis = await space.connect(undefined, log);
  const channel = `${space.prefix}channel`;
  const received: string[] = [];
  const errors: unknown[] = [];
  const subscriber = await subscribeChannel(redis, {
    log,
    name: 'subscriber',
    channel,
    onMessage: (message) => received.push(message),
    onError: (err) => errors.push(err),
  });
  cleanups.add(() => subscriber.disconnect());
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  cleanups.add(() => process.off('unhandledRejection', onUnhandled));

  // The next connection is lost as its ready check answers: after the answer is read, before it is acted on.
  let drops = 0;
  subscriber.on('connect', () => {
    const stream = subscriber.stream;
    stream.prependListener('data', (chunk: Buffer) => {
      if (drops === 0 && chunk.includes('redis_version')) {
        drops += 1;
        queueMicrotask(() => stream.destroy());
      }
    });
  });
  subscriber.stream.destroy();
  await until(async () => (await redis.publish(channel, 'after')) === 1 && received.includes('after'), {
    what: 'the subscription to be back',
    timeoutMs: 8000,
  });
  expect(drops).toBe(1);
  expect(unhandled).toEqual([]);
});
