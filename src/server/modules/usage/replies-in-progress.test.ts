import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLogger, redisTestSpace, startRedisProxy } from '../../../../tests/support/redis';
import { until } from '../../../../tests/support/wait';
import { inProcessRepliesInProgress, redisRepliesInProgress } from './replies-in-progress';

describe('replies in progress', () => {
  const space = redisTestSpace();
  let proxy: Awaited<ReturnType<typeof startRedisProxy>>;
  beforeAll(async () => {
    proxy = await startRedisProxy();
  });
  afterAll(async () => {
    await space.cleanup();
    await proxy.close();
  });

  it('counts within one process, gives places back oldest first, and forgets expired ones', async () => {
    const counter = inProcessRepliesInProgress(100);
    expect(await counter.hold(1)).toBe(1);
    expect(await counter.hold(1)).toBe(2);
    expect(await counter.hold(2)).toBe(1);
    await counter.release(1);
    expect(await counter.hold(1)).toBe(2);
    await sleep(120);
    expect(await counter.hold(1)).toBe(1);
  });

  it('is shared by instances through Redis, with places that expire', async () => {
    const { log } = recordingLogger();
    const options = { holdMs: 300, keyPrefix: space.prefix, log };
    const a = redisRepliesInProgress(await space.connect(), options);
    const b = redisRepliesInProgress(await space.connect(), options);
    expect(await a.hold(7)).toBe(1);
    expect(await b.hold(7)).toBe(2);
    await a.release(7);
    expect(await b.hold(7)).toBe(2);
    expect(await a.hold(8)).toBe(1);
    await sleep(350);
    expect(await a.hold(7)).toBe(1);
  });

  it('counts on its own while Redis is away, with one warning, and shares again once it is back', async () => {
    const recorded = recordingLogger();
    const options = { holdMs: 60_000, keyPrefix: space.prefix, log: recorded.log };
    const cutOff = redisRepliesInProgress(await space.connect(proxy.url, recorded.log), options);
    const other = redisRepliesInProgress(await space.connect(), options);
    expect(await other.hold(9)).toBe(1);
    proxy.cut();
    expect(await cutOff.hold(9)).toBe(1);
    expect(await cutOff.hold(9)).toBe(2);
    expect(recorded.warnings().filter((w) => w.startsWith('Redis unavailable'))).toHaveLength(1);
    proxy.restore();
    // Calls for another user until one reaches Redis again.
    await until(
      async () => {
        await cutOff.hold(10);
        return recorded.lines.some((line) => line.msg.startsWith('Redis available again'));
      },
      { what: 'Redis shared again' },
    );
    // One count again (a hold sent as the line was cut may still reach Redis once it is back: counted twice,
    // which refuses early rather than late).
    const seen = await other.hold(9);
    expect(await cutOff.hold(9)).toBe(seen + 1);
  });
});
