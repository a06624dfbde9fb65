import type { Timer, Timers } from '../../src/server/lib/timers';

interface Pending {
  due: number;
  /** For an interval: its period. */
  every: number | undefined;
  /** Timers due at the same time run in the order they were set, as Node runs them. */
  order: number;
  callback: () => unknown;
}

/**
 * Timers and a clock that only move when the test says so (lib/timers.ts): `advance(ms)` runs every timer that
 * falls due within `ms`, earliest first, with the clock at its due time, and waits for the promise a callback
 * returns (a batch written to Redis, a lock renewed) before the next. Real I/O keeps its own, real, time.
 */
export function manualTime(start = Date.now()) {
  let now = start;
  let order = 0;
  const pending = new Map<Timer, Pending>();
  const set = (callback: () => unknown, ms: number, every?: number): Timer => {
    const timer: Timer = { unref: () => timer };
    pending.set(timer, { due: now + Math.max(0, ms), every, order: order++, callback });
    return timer;
  };
  const clear = (timer: Timer | undefined) => {
    if (timer) pending.delete(timer);
  };
  const next = (until: number) => {
    let found: [Timer, Pending] | undefined;
    for (const entry of pending) {
      const [, { due, order }] = entry;
      if (due <= until && (!found || due < found[1].due || (due === found[1].due && order < found[1].order))) {
        found = entry;
      }
    }
    return found;
  };

  const time = {
    now: () => new Date(now),
    setTimeout: (callback, ms) => set(callback, ms),
    clearTimeout: clear,
    // Node runs an interval of 0 every millisecond.
    setInterval: (callback, ms) => set(callback, ms, Math.max(1, ms)),
    clearInterval: clear,
  } satisfies Timers;

  return {
    ...time,
    /** Moves the clock `ms` on, running what falls due meanwhile; 0 runs what is due now. */
    async advance(ms = 0) {
      const until = now + ms;
      for (let found = next(until); found; found = next(until)) {
        const [timer, entry] = found;
        now = Math.max(now, entry.due);
        if (entry.every === undefined) pending.delete(timer);
        else Object.assign(entry, { due: entry.due + entry.every, order: order++ });
        await entry.callback();
      }
      now = until;
    },
  };
}
