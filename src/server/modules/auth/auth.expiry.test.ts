import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { manualClock, register, startCheckedApp, tokenFor } from '../../../../tests/support/auth-api';
import { logSink } from '../../../../tests/support/log-sink';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { EMAIL_TOKEN_TTL_MS, SESSION_TTL_MS } from './auth.service';

const HOUR = 60 * 60 * 1000;

describe.each(databaseKinds)('purging expired sessions and e-mail links on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await startCheckedApp({ kind, clock, sweepIntervalMs: 50 });
  });
  afterAll(() => t.close());

  const count = async (table: 'sessions' | 'email_tokens', userId: number) =>
    (await t.db.kysely.selectFrom(table).select('id').where('user_id', '=', userId).execute()).length;

  it('drops what has expired on a timer and keeps what still works', async () => {
    const account = await register(t);
    await tokenFor(t, account, false);
    await t.request('POST', '/api/auth/forgot-password', { body: { email: account.email } });
    await expect.poll(() => count('email_tokens', account.id)).toBe(1);

    clock.advance(Math.max(SESSION_TTL_MS.browserSession, EMAIL_TOKEN_TTL_MS.reset_password) + HOUR);
    const fresh = await tokenFor(t, account, true);

    await expect.poll(() => count('email_tokens', account.id), { timeout: 5000 }).toBe(0);
    await expect.poll(() => count('sessions', account.id), { timeout: 5000 }).toBe(1);
    expect((await t.request('GET', '/api/auth/user', { token: fresh })).status).toBe(200);
  });

  it('stops when the app closes, before the database goes', async () => {
    const log = logSink();
    const other = await startTestApp({ kind, sweepIntervalMs: 10, env: { LOG_LEVEL: 'warn' }, logStream: log.stream });
    await sleep(50);
    await other.close({ keepDb: true });
    await other.db.close();
    await sleep(100);
    await other.testDb.drop();
    expect(log.entries()).toEqual([]);
  });
});
