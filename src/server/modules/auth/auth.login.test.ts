import { MESSAGES } from '@shared/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  currentUser,
  expectError,
  expectValidation,
  login,
  manualClock,
  register,
  sessionRow,
  startCheckedApp,
  tokenFor,
  type Account,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES, SESSION_TTL_MS } from './auth.service';

describe.each(databaseKinds)('POST /api/auth/login on %s', (kind) => {
  let t: TestApp;
  let account: Account;
  const clock = manualClock();
  beforeAll(async () => {
    t = await startCheckedApp({ kind, clock });
    account = await register(t);
  });
  afterAll(() => t.close());

  it('signs in by username, in any letter case, with a token that identifies the user', async () => {
    for (const username of [account.username, account.username.toUpperCase()]) {
      const res = await login(t, username, account.password);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.any(String), user: expect.objectContaining({ id: account.id }) });
      const me = await currentUser(t, res.body.token);
      expect(me.body).toMatchObject({ id: account.id, username: account.username, email: account.email });
    }
  });

  it('signs in by e-mail address too', async () => {
    const res = await login(t, account.email.toUpperCase(), account.password);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(account.id);
  });

  it('answers a wrong password and an unknown user with the same 401', async () => {
    const wrongPassword = await login(t, account.username, 'not-the-password');
    const unknownUser = await login(t, 'nobody_here', account.password);
    expectError(wrongPassword, 401, AUTH_MESSAGES.invalidCredentials);
    expect(unknownUser.status).toBe(401);
    expect({ ...unknownUser.body, requestId: 0 }).toEqual({ ...wrongPassword.body, requestId: 0 });
  });

  it.each([
    ['username', { password: 'x' }, MESSAGES.usernameRequired],
    ['username', { username: '', password: 'x' }, MESSAGES.usernameRequired],
    ['username', { username: '   ', password: 'x' }, MESSAGES.usernameRequired],
    ['password', { username: 'someone' }, MESSAGES.passwordRequired],
    ['password', { username: 'someone', password: '' }, MESSAGES.passwordRequired],
  ])('rejects a missing %s (%j) with 400 and the spec message', async (field, body, message) => {
    expectValidation(await t.request('POST', '/api/auth/login', { body }), field, message);
  });

  it('keeps a remembered session for 30 days and any other for one day', async () => {
    const lifetime = async (rememberMe?: boolean) => {
      const row = await sessionRow(t, await tokenFor(t, account, rememberMe));
      return { remember: Boolean(row.remember), ms: Date.parse(row.expires_at) - Date.parse(row.created_at) };
    };
    expect(await lifetime(true)).toEqual({ remember: true, ms: SESSION_TTL_MS.remembered });
    expect(await lifetime(false)).toEqual({ remember: false, ms: SESSION_TTL_MS.browserSession });
    expect(await lifetime(undefined)).toEqual({ remember: false, ms: SESSION_TTL_MS.browserSession });
    expect(SESSION_TTL_MS).toEqual({ remembered: 30 * 86_400_000, browserSession: 86_400_000 });
  });

  it('lets a session lapse at its expiry: the one-day session first, the remembered one later', async () => {
    const short = await tokenFor(t, account, false);
    const long = await tokenFor(t, account, true);
    clock.advance(SESSION_TTL_MS.browserSession + 1000);
    expect((await currentUser(t, short)).status).toBe(401);
    expect((await currentUser(t, long)).status).toBe(200);
    clock.advance(SESSION_TTL_MS.remembered);
    expect((await currentUser(t, long)).status).toBe(401);
  });
});

describe.each(databaseKinds)('login while e-mail verification is required, on %s', (kind) => {
  let t: TestApp;
  let unverified: Account;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, smtp: true });
    await register(t);
    unverified = await register(t);
  });
  afterAll(() => t.close());

  it('answers 403 with needsVerification and the account e-mail, and opens no session', async () => {
    const res = await login(t, unverified.username, unverified.password);
    expectError(res, 403, AUTH_MESSAGES.needsVerification);
    expect(res.body).toMatchObject({ needsVerification: true, email: unverified.email, code: 'EMAIL_NOT_VERIFIED' });
    expect(res.body.token).toBeUndefined();
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', unverified.id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('says nothing about verification to someone without the password', async () => {
    const res = await login(t, unverified.username, 'not-the-password');
    expectError(res, 401, AUTH_MESSAGES.invalidCredentials);
    expect(res.body.needsVerification).toBeUndefined();
    expect(res.body.email).toBeUndefined();
  });
});

describe.each(databaseKinds)('rate limit on the auth routes, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, authRateLimit: { max: 3, timeWindow: 60_000 } });
  });
  afterAll(() => t.close());

  it('answers the 4th login attempt with 429, Retry-After and a JSON message, and leaves other routes alone', async () => {
    const account = await register(t);
    const token = await tokenFor(t, account);
    expect((await login(t, account.username, 'wrong-password')).status).toBe(401);
    expect((await login(t, account.username, 'wrong-password')).status).toBe(401);

    const limited = await login(t, account.username, account.password);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/too many attempts/i) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await register(t)).id).toEqual(expect.any(Number));
    expect((await t.request('POST', '/api/auth/forgot-password', { body: { email: account.email } })).status).toBe(200);
    expect((await currentUser(t, token)).status).toBe(200);
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });

  it('is not dodged by a forged X-Forwarded-For header', async () => {
    const statuses = [];
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) {
      const res = await t.request('POST', '/api/auth/reset-password', {
        body: { token: 'not-a-token', newPassword: 'whatever-password' },
        headers: { 'x-forwarded-for': ip },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
