import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { manualClock, register, startCheckedApp, tokenFor } from '../../../../tests/support/auth-api';
import { logSink } from '../../../../tests/support/log-sink';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { EMAIL_TOKEN_TTL_MS, SESSION_TTL_MS } from './auth.service';

const HOUR = 60 * 60 * 1000;
/**
 * The sweep's period, on the app's interval timers, which the tests move by hand (only setInterval is faked: the
 * database, the HTTP calls and expect.poll keep real time). Shorter than the app's other periodic tasks (a second
 * and more), so moving the timers by it runs the sweep alone. What the sweep compares is the app's clock.
 */
const SWEEP_MS = 10;
/** Polls every few milliseconds for what the database does in the background. */
const soon = { interval: 5, timeout: 5000 };

describe.each(databaseKinds)('purging expired sessions and e-mail links on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await startCheckedApp({ kind, clock, sweepIntervalMs: SWEEP_MS });
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  const count = async (table: 'sessions' | 'email_tokens', userId: number) =>
    (await t.db.kysely.selectFrom(table).select('id').where('user_id', '=', userId).execute()).length;

  it('drops what has expired on a timer and keeps what still works', async () => {
    const account = await register(t);
    await tokenFor(t, account, false);
    await t.request('POST', '/api/auth/forgot-password', { body: { email: account.email } });
    await expect.poll(() => count('email_tokens', account.id), soon).toBe(1);

    clock.advance(Math.max(SESSION_TTL_MS.browserSession, EMAIL_TOKEN_TTL_MS.reset_password) + HOUR);
    const fresh = await tokenFor(t, account, true);
    // Expired, but kept until the sweep's next run.
    expect(await count('email_tokens', account.id)).toBe(1);
    expect(await count('sessions', account.id)).toBe(2);

    vi.advanceTimersByTime(SWEEP_MS);
    await expect.poll(() => count('email_tokens', account.id), soon).toBe(0);
    await expect.poll(() => count('sessions', account.id), soon).toBe(1);
    expect((await t.request('GET', '/api/auth/user', { token: fresh })).status).toBe(200);
  });

  it('stops when the app closes, before the database goes', async () => {
    const log = logSink();
    const timers = vi.getTimerCount();
    const other = await startTestApp({
      kind,
      sweepIntervalMs: SWEEP_MS,
      env: { LOG_LEVEL: 'warn' },
      logStream: log.stream,
    });
    // A sweep starts as the app closes: closing waits for it, then stops the timer.
    vi.advanceTimersByTime(SWEEP_MS);
    await other.close({ keepDb: true });
    expect(vi.getTimerCount()).toBe(timers);
    await other.db.close();
    // Had the timer stayed, these would start sweeps on the closed database, each logging its failure.
    vi.advanceTimersByTime(3 * SWEEP_MS);
    await other.testDb.drop();
    expect(log.entries()).toEqual([]);
  });
});
