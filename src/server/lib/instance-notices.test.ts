import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, recordingLogger, type redisTestSpace, startRedisProxy } from '../../../tests/support/redis';
import { until } from '../../../tests/support/wait';
import { instanceNotices, type InstanceNotices, type NoticeKind } from './instance-notices';
import { REDIS_DEGRADED_MEANING } from './redis';

const silent = pino({ level: 'silent' });
const cleanups = cleanupsAfterEach();

/** An instance's notices on `space`, and every kind it hears, in order. */
async function redisInstance(
  space: ReturnType<typeof redisTestSpace>,
  options: { url?: string; log?: pino.Logger } = {},
) {
  const log = options.log ?? silent;
  const redis = await space.connect(options.url, log);
  const notices = await instanceNotices({ log, redis, keyPrefix: space.prefix });
  cleanups.add(notices.close);
  return { redis, notices, heard: hearing(notices) };
}

const KINDS: NoticeKind[] = ['files-queued', 'evaluation-queued', 'settings-changed', 'connections-changed'];

function hearing(notices: InstanceNotices) {
  const heard: NoticeKind[] = [];
  for (const kind of KINDS) notices.on(kind, () => heard.push(kind));
  return heard;
}

describe.each([
  ['in-process', () => instanceNotices({ log: silent })],
  ['Redis', async () => (await redisInstance(cleanups.redisSpace())).notices],
] satisfies [string, () => Promise<InstanceNotices>][])('%s notices', (_name, create) => {
  it("call this instance's listeners of the kind told before telling resolves, until they stop listening", async () => {
    const notices = await create();
    const files: string[] = [];
    const stop = notices.on('files-queued', () => files.push('first'));
    notices.on('files-queued', () => files.push('second'));
    const settings: string[] = [];
    notices.on('settings-changed', () => settings.push('heard'));

    const told = notices.tell('files-queued');
    expect(files).toEqual(['first', 'second']);
    await told;
    expect(settings).toEqual([]);
    stop();
    await notices.tell('files-queued');
    expect(files).toEqual(['first', 'second', 'second']);
  });
});

describe('notices through Redis', () => {
  it('reach the other instances, each heard once where it was told', async () => {
    const space = cleanups.redisSpace();
    const a = await redisInstance(space);
    const b = await redisInstance(space);

    await a.notices.tell('settings-changed');
    await until(() => b.heard.length === 1, { what: 'B to hear A' });
    await b.notices.tell('evaluation-queued');
    // A hears its own first notice back before B's (one channel, in order), so one line each proves it skipped it.
    await until(() => a.heard.length === 2, { what: 'A to hear B' });
    await a.notices.tell('connections-changed');
    await until(() => b.heard.length === 3, { what: 'B to hear A again' });

    const all: NoticeKind[] = ['settings-changed', 'evaluation-queued', 'connections-changed'];
    expect(a.heard).toEqual(all);
    expect(b.heard).toEqual(all);
  });

  it('still reach this instance while Redis is away, and the others again once it is back', async () => {
    const space = cleanups.redisSpace();
    const proxy = await startRedisProxy();
    cleanups.add(proxy.close);
    const { log, warnings } = recordingLogger();
    const a = await redisInstance(space, { url: proxy.url, log });
    const b = await redisInstance(space);

    proxy.cut();
    await until(() => a.redis.status !== 'ready', { what: 'A to notice the outage' });
    await a.notices.tell('files-queued');
    expect(a.heard).toEqual(['files-queued']);
    expect(warnings()).toEqual([`Redis unavailable: ${REDIS_DEGRADED_MEANING}`]);

    proxy.restore();
    // A's subscriber subscribes again by itself once reconnected; until then B's notices pass it by.
    await until(
      async () => {
        await b.notices.tell('evaluation-queued');
        return a.heard.includes('evaluation-queued');
      },
      { what: 'A to hear B again' },
    );
    await until(() => a.redis.status === 'ready', { what: 'A to reconnect' });
    await a.notices.tell('settings-changed');
    await until(() => b.heard.includes('settings-changed'), { what: 'B to hear A again' });
    expect(b.heard).not.toContain('files-queued');
  });
});
