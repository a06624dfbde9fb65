import type { Clock } from './clock';

/** A timer as the code that set it holds it: cleared, or unref'd so that it never keeps the process alive. */
export interface Timer {
  unref(): Timer;
}

/**
 * The clock and the timers of code that acts when time passes (batches leaving, logs forgotten, locks
 * renewed): the system's in production; a test's (tests/support/manual-time.ts) moves time by hand, so what
 * takes seconds happens at once and in a known order. A callback may return a promise (the work it
 * started): the system's timers ignore it, a test's waits for it, so the test knows when that work is done.
 */
export interface Timers extends Clock {
  setTimeout(callback: () => unknown, ms: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
  setInterval(callback: () => unknown, ms: number): Timer;
  clearInterval(timer: Timer | undefined): void;
}

export const systemTimers: Timers = {
  now: () => new Date(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout | undefined),
};
