import { describe, expect, it } from 'vitest';
import { sessionCache } from './session-cache';

/** A session store the test changes by hand, counting the reads the cache makes of it. */
function store() {
  const sessions = new Map<string, { value: string; userId: number; expiresAt: string }>();
  let reads = 0;
  let gate: Promise<void> | null = null;
  return {
    sessions,
    reads: () => reads,
    /** Holds every read until the returned function is called. */
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
    lookup: (hash: string) => async () => {
      reads += 1;
      const answer = sessions.get(hash);
      if (gate) await gate;
      return answer && { ...answer };
    },
  };
}

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('the session cache', () => {
  it('reads a session once for the requests that ask together, and again once its time is up', async () => {
    let now = Date.now();
    const s = store();
    s.sessions.set('a', { value: 'ada', userId: 1, expiresAt: later(60_000) });
    const cache = sessionCache<string>({ ttlMs: 5000, now: () => now });
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('a', s.lookup('a'))));
    expect(answers).toEqual(Array(20).fill('ada'));
    expect(s.reads()).toBe(1);
    now += 4999;
    expect(await cache.get('a', s.lookup('a'))).toBe('ada');
    expect(s.reads()).toBe(1);
    now += 1;
    s.sessions.delete('a');
    expect(await cache.get('a', s.lookup('a'))).toBeNull();
    expect(s.reads()).toBe(2);
  });

  it('never keeps a session past its expiry, and does not remember unknown tokens', async () => {
    let now = Date.now();
    const s = store();
    s.sessions.set('a', { value: 'ada', userId: 1, expiresAt: new Date(now + 1000).toISOString() });
    const cache = sessionCache<string>({ ttlMs: 5000, now: () => now });
    await cache.get('a', s.lookup('a'));
    now += 1000;
    s.sessions.delete('a');
    expect(await cache.get('a', s.lookup('a'))).toBeNull();
    expect(await cache.get('nobody', s.lookup('nobody'))).toBeNull();
    expect(await cache.get('nobody', s.lookup('nobody'))).toBeNull();
    expect(s.reads()).toBe(4);
  });

  it('forgets a user’s sessions at once, and only theirs', async () => {
    const s = store();
    s.sessions.set('a1', { value: 'ada', userId: 1, expiresAt: later(60_000) });
    s.sessions.set('a2', { value: 'ada again', userId: 1, expiresAt: later(60_000) });
    s.sessions.set('b', { value: 'bob', userId: 2, expiresAt: later(60_000) });
    const published: number[] = [];
    const cache = sessionCache<string>({
      ttlMs: 5000,
      now: Date.now,
      publishForget: async (userId) => void published.push(userId),
    });
    for (const hash of ['a1', 'a2', 'b']) await cache.get(hash, s.lookup(hash));
    s.sessions.delete('a1');
    s.sessions.set('a2', { value: 'ada renamed', userId: 1, expiresAt: later(60_000) });
    await cache.forgetUser(1);
    expect(published).toEqual([1]);
    expect(await cache.get('a1', s.lookup('a1'))).toBeNull();
    expect(await cache.get('a2', s.lookup('a2'))).toBe('ada renamed');
    expect(await cache.get('b', s.lookup('b'))).toBe('bob');
    expect(s.reads()).toBe(5);
  });

  it('does not remember what a read that began before a change found', async () => {
    const s = store();
    s.sessions.set('a', { value: 'ada', userId: 1, expiresAt: later(60_000) });
    const cache = sessionCache<string>({ ttlMs: 5000, now: Date.now });
    const release = s.hold();
    const before = cache.get('a', s.lookup('a'));
    s.sessions.delete('a');
    await cache.forgetUser(1);
    // A request after the change does not wait for the older read either.
    const after = cache.get('a', s.lookup('a'));
    release();
    expect(await before).toBe('ada');
    expect(await after).toBeNull();
    expect(await cache.get('a', s.lookup('a'))).toBeNull();
    expect(s.reads()).toBe(3);
  });

  it('hears another instance forget a user', async () => {
    const s = store();
    s.sessions.set('a', { value: 'ada', userId: 1, expiresAt: later(60_000) });
    let remote!: (userId: number) => void;
    const cache = sessionCache<string>({
      ttlMs: 5000,
      now: Date.now,
      onRemoteForget: (listener) => (remote = listener),
    });
    await cache.get('a', s.lookup('a'));
    s.sessions.delete('a');
    remote(1);
    expect(await cache.get('a', s.lookup('a'))).toBeNull();
  });

  it('reads every time with a lifetime of 0', async () => {
    const s = store();
    s.sessions.set('a', { value: 'ada', userId: 1, expiresAt: later(60_000) });
    const cache = sessionCache<string>({ ttlMs: 0, now: Date.now });
    await Promise.all([cache.get('a', s.lookup('a')), cache.get('a', s.lookup('a'))]);
    await cache.get('a', s.lookup('a'));
    expect(s.reads()).toBe(3);
  });
});
