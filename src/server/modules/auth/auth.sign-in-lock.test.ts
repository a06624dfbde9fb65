import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { expectError, mailsTo, nextMail, register, startCheckedApp } from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from './auth.service';
import { TOO_MANY_ATTEMPTS } from '../../plugins/rate-limit';

const LOCK_SUBJECT = /Sign-in to your Botty account was paused/;
const PER_ACCOUNT = 4;

describe.each(databaseKinds)('the per-account sign-in lock and device cookies, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // One proxy in front, so each request can come from its own address, as a botnet's would.
    t = await startCheckedApp({
      kind,
      smtp: true,
      env: { TRUST_PROXY: '1', RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: String(PER_ACCOUNT) },
      authRateLimit: undefined,
    });
    await register(t);
  });
  afterAll(() => t.close());

  let address = 0;
  const signIn = (username: string, password: string, headers: Record<string, string> = {}) =>
    t.request('POST', '/api/auth/login', {
      body: { username, password },
      headers: { 'x-forwarded-for': `203.0.113.${++address}`, ...headers },
    });

  /** A verified account (sign-in needs one) and the device cookie its owner's browser got when signing in. */
  async function ownerWithDevice(headers: Record<string, string> = {}) {
    const owner = await register(t);
    await t.db.kysely.updateTable('users').set({ email_verified: true }).where('id', '=', owner.id).execute();
    const res = await signIn(owner.username, owner.password, headers);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { owner, setCookie, cookie: setCookie.split(';')[0]! };
  }

  const guessUntilLocked = async (username: string) => {
    const statuses = [];
    for (let n = 0; n < PER_ACCOUNT + 1; n++) statuses.push((await signIn(username, 'wrong-password')).status);
    return statuses;
  };

  it('sets a signed, HttpOnly device cookie for the sign-in route, Secure over HTTPS', async () => {
    const { owner, setCookie } = await ownerWithDevice();
    expect(setCookie).toMatch(new RegExp(`^botty_device_${owner.id}=${owner.id}\\.[\\w-]{22}\\.[\\w-]{43}; `));
    expect(setCookie).toContain('Path=/api/auth/login');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain('Secure');
    const overHttps = await ownerWithDevice({ 'x-forwarded-proto': 'https' });
    expect(overHttps.setCookie).toMatch(/; Secure$/);
  });

  it("locks guesses from rotating addresses, lets the owner's browser in, and mails the owner once", async () => {
    const { owner, cookie } = await ownerWithDevice();
    // The owner's own sign-in counted too: it came from a browser without a device cookie.
    expect(await guessUntilLocked(owner.username)).toEqual([401, 401, 401, 429, 429]);

    // A browser without the cookie is refused even with the right password; with it, the owner gets in.
    expectError(await signIn(owner.username, owner.password), 429, TOO_MANY_ATTEMPTS);
    const withDevice = await signIn(owner.username, owner.password, { cookie: `other=1; ${cookie}` });
    expect(withDevice.status).toBe(200);
    expect(withDevice.headers.get('set-cookie')).toMatch(new RegExp(`^botty_device_${owner.id}=`));

    const mail = await t.smtp!.waitForMail(owner.email, LOCK_SUBJECT);
    expect(mail.text).toContain('http://botty.test/forgot-password');
    // Mails arrive in the order sent: once a later lock mail to someone else is in, no second one to the owner came.
    const marker = await ownerWithDevice();
    await guessUntilLocked(marker.owner.username);
    await nextMail(t, marker.owner.email, LOCK_SUBJECT, 0);
    expect(mailsTo(t, owner.email, LOCK_SUBJECT)).toHaveLength(1);
  });

  it('refuses forged or borrowed device cookies, and gives a real one its own budget of guesses', async () => {
    const { owner, cookie } = await ownerWithDevice();
    const other = await ownerWithDevice();
    await guessUntilLocked(owner.username);
    const [name, value] = cookie.split('=') as [string, string];
    const [id, nonce, mac] = value.split('.') as [string, string, string];
    const forged = [
      `${name}=${id}.${nonce}.${mac.slice(0, -2)}AA`,
      `${name}=${id}.${'A'.repeat(22)}.${mac}`,
      `${name}=${other.owner.id}.${nonce}.${mac}`,
      `botty_device_${other.owner.id}=${other.cookie.split('=')[1]}`,
    ];
    for (const bad of forged) expect((await signIn(owner.username, owner.password, { cookie: bad })).status).toBe(429);

    // The device's budget: guesses with a stolen cookie end in 429 as well.
    const statuses = [];
    for (let n = 0; n < PER_ACCOUNT; n++) {
      const res = await signIn(owner.username, 'wrong-password', { cookie });
      statuses.push(res.status);
      if (res.status === 401) expectError(res, 401, AUTH_MESSAGES.invalidCredentials);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    expectError(await signIn(owner.username, 'wrong-password', { cookie }), 429, TOO_MANY_ATTEMPTS);
  });
});
