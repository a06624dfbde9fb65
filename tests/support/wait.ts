import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `check` holds, looking every few milliseconds: for what happens through real I/O (a reconnection,
 * a message on another connection, a job in the background) rather than a fixed sleep that is too long on a
 * fast machine and too short on a busy one. Fails after `timeoutMs`, naming `what` it waited for.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  { what = 'a condition', timeoutMs = 5000, intervalMs = 5 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let looked = 0; !(await check()); looked++) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // The first look again is on the next turn of the event loop, enough for what happens within the process.
    await (looked === 0 ? new Promise((resolve) => setImmediate(resolve)) : sleep(intervalMs));
  }
}
