import { MESSAGES } from '@shared/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../../db/database';
import { databaseKinds } from '../../../../tests/support/databases';
import { linkIn } from '../../../../tests/support/smtp-receiver';
import {
  currentUser,
  expectError,
  expectValidation,
  login,
  mailsTo,
  manualClock,
  nextMail,
  register,
  RESET_SUBJECT,
  startCheckedApp,
  tokenFor,
  tokenOf,
  VERIFY_SUBJECT,
  type Account,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES, EMAIL_TOKEN_TTL_MS } from './auth.service';

const MINUTE = 60_000;

// Mail goes out after the response, so "nothing was sent" is checked once a later mail to someone else has
// arrived: the SMTP receiver takes them in the order the server sent them.
async function expectNoMailBeforeNext(t: TestApp, to: string, trigger: () => Promise<unknown>, marker: Account) {
  const seen = mailsTo(t, marker.email, /./).length;
  await trigger();
  await nextMail(t, marker.email, /./, seen);
  expect(mailsTo(t, to, /./)).toEqual([]);
}

/** An app that mails to the test's SMTP receiver and reads the time from `clock`; its administrator is made. */
async function startMailingApp(kind: DatabaseKind, clock: ReturnType<typeof manualClock>) {
  const t = await startCheckedApp({ kind, smtp: true, clock });
  await register(t);
  return t;
}

/** Of two links mailed together, the one used a minute before `ttl` is up works, the other a minute after is refused. */
async function expectLinkLifetime<L extends { token: string }>(
  clock: ReturnType<typeof manualClock>,
  ttl: number,
  mailLink: () => Promise<L>,
  use: (token: string) => Promise<Parameters<typeof expectError>[0]>,
  refusal: string,
) {
  const [early, late] = await Promise.all([mailLink(), mailLink()]);
  clock.advance(ttl - MINUTE);
  expect((await use(early.token)).status).toBe(200);
  clock.advance(2 * MINUTE);
  expectError(await use(late.token), 400, refusal);
  return late;
}

describe.each(databaseKinds)('e-mail verification through the mailed link, on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await startMailingApp(kind, clock);
  });
  afterAll(() => t.close());

  const verify = (token: string) => t.request('GET', `/api/auth/verify-email/${token}`);
  const resend = (email: string) => t.request('POST', '/api/auth/resend-verification', { body: { email } });

  /** Registers an account and returns it with the token of the verification link it was mailed. */
  async function registerAndReadMail() {
    const account = await register(t);
    const mail = await t.smtp!.waitForMail(account.email, VERIFY_SUBJECT);
    return { account, token: tokenOf(linkIn(mail, '/verify-email/')) };
  }

  it('mails an APP_URL link whose token verifies the address once, after which login works', async () => {
    const account = await register(t);
    const mail = await t.smtp!.waitForMail(account.email, VERIFY_SUBJECT);
    const link = linkIn(mail, '/verify-email/');
    expect(link).toMatch(/^http:\/\/botty\.test\/verify-email\/[\w-]{40,}$/);
    expect(mail.html).toContain(link);
    expectError(await login(t, account.username, account.password), 403, AUTH_MESSAGES.needsVerification);

    const res = await verify(tokenOf(link));
    expect(res).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.verified } });
    const signedIn = await login(t, account.username, account.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.emailVerified).toBe(true);

    expectError(await verify(tokenOf(link)), 400, AUTH_MESSAGES.verifyInvalid);
  });

  it('refuses a made-up token with 400', async () => {
    expectError(await verify('made-up-token'), 400, AUTH_MESSAGES.verifyInvalid);
  });

  it('honours a link for 24 hours and refuses it after that', async () => {
    const late = await expectLinkLifetime(
      clock,
      EMAIL_TOKEN_TTL_MS.verify_email,
      registerAndReadMail,
      verify,
      AUTH_MESSAGES.verifyInvalid,
    );
    expect((await login(t, late.account.username, late.account.password)).status).toBe(403);
  });

  it('resends a fresh link that works, and the old one stops working', async () => {
    const { account, token: oldToken } = await registerAndReadMail();
    const res = await resend(account.email.toUpperCase());
    expect(res).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.resendSent } });
    const newToken = tokenOf(linkIn(await nextMail(t, account.email, VERIFY_SUBJECT, 1), '/verify-email/'));

    expect(newToken).not.toBe(oldToken);
    expectError(await verify(oldToken), 400, AUTH_MESSAGES.verifyInvalid);
    expect((await verify(newToken)).status).toBe(200);
  });

  it('answers a resend for an unknown or already verified address the same way, sending nothing', async () => {
    const { account: marker } = await registerAndReadMail();
    const known = await resend(marker.email);
    await nextMail(t, marker.email, VERIFY_SUBJECT, 1);
    const unknown = 'nobody@example.com';
    await expectNoMailBeforeNext(
      t,
      unknown,
      async () => {
        expect((await resend(unknown)).body).toEqual(known.body);
        await resend(marker.email);
      },
      marker,
    );

    const verified = await register(t);
    await t.smtp!.waitForMail(verified.email, VERIFY_SUBJECT);
    await t.db.kysely.updateTable('users').set({ email_verified: true }).where('id', '=', verified.id).execute();
    const mailsBefore = mailsTo(t, verified.email, /./).length;
    await expectNoMailBeforeNext(
      t,
      'unused@example.com',
      async () => {
        expect((await resend(verified.email)).body).toEqual(known.body);
        await resend(marker.email);
      },
      marker,
    );
    expect(mailsTo(t, verified.email, /./)).toHaveLength(mailsBefore);
  });

  it('rejects a resend with an invalid address with 400 and the spec message', async () => {
    expectValidation(await resend('not-an-email'), 'email', MESSAGES.emailInvalid);
  });
});

describe.each(databaseKinds)('forgotten password and reset through the mailed link, on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await startMailingApp(kind, clock);
  });
  afterAll(() => t.close());

  const forgot = (email: string) => t.request('POST', '/api/auth/forgot-password', { body: { email } });
  const reset = (token: string, newPassword = 'a-brand-new-password') =>
    t.request('POST', '/api/auth/reset-password', { body: { token, newPassword } });

  /** A verified account that asked for a reset, with the token from the mail it received. */
  async function requestReset(account?: Account) {
    const who = account ?? (await verifiedAccount());
    const seen = mailsTo(t, who.email, RESET_SUBJECT).length;
    expect((await forgot(who.email)).status).toBe(200);
    const mail = await nextMail(t, who.email, RESET_SUBJECT, seen);
    return { account: who, token: tokenOf(linkIn(mail, '/reset-password/')) };
  }

  async function verifiedAccount() {
    const account = await register(t);
    await t.db.kysely.updateTable('users').set({ email_verified: true }).where('id', '=', account.id).execute();
    return account;
  }

  it('answers an existing and an unknown address with the same 200 body, mailing only the existing one', async () => {
    const account = await verifiedAccount();
    const known = await forgot(account.email);
    const unknown = await forgot('nobody@example.com');
    expect(known).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.forgotSent } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const link = linkIn(await t.smtp!.waitForMail(account.email, RESET_SUBJECT), '/reset-password/');
    expect(link).toMatch(/^http:\/\/botty\.test\/reset-password\/[\w-]{40,}$/);
    expect(mailsTo(t, 'nobody@example.com', /./)).toEqual([]);
  });

  it('resets once with the mailed token, revokes every session, and swaps the old password for the new', async () => {
    const { account, token } = await requestReset();
    const sessions = [await tokenFor(t, account, true), await tokenFor(t, account, false)];
    const newPassword = 'a-brand-new-password';

    expect(await reset(token, newPassword)).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.resetDone } });
    for (const session of sessions) expect((await currentUser(t, session)).status).toBe(401);
    expectError(await login(t, account.username, account.password), 401, AUTH_MESSAGES.invalidCredentials);
    expect((await login(t, account.username, newPassword)).status).toBe(200);

    expectError(await reset(token, 'yet-another-password'), 400, AUTH_MESSAGES.resetInvalid);
    expect((await login(t, account.username, newPassword)).status).toBe(200);
  });

  it('honours a reset link for one hour and refuses it after that', async () => {
    const late = await expectLinkLifetime(
      clock,
      EMAIL_TOKEN_TTL_MS.reset_password,
      () => requestReset(),
      (token) => reset(token),
      AUTH_MESSAGES.resetInvalid,
    );
    expect((await login(t, late.account.username, late.account.password)).status).toBe(200);
  });

  it('refuses a short new password with the spec message, leaving the link usable', async () => {
    const { token } = await requestReset();
    expectValidation(await reset(token, 'short'), 'newPassword', MESSAGES.passwordMin);
    expect((await reset(token)).status).toBe(200);
  });

  it('invalidates an earlier reset link when a newer one is sent', async () => {
    const first = await requestReset();
    const second = await requestReset(first.account);
    expectError(await reset(first.token), 400, AUTH_MESSAGES.resetInvalid);
    expect((await reset(second.token)).status).toBe(200);
  });

  it('does not accept a verification token as a reset token, nor a made-up or missing one', async () => {
    const account = await register(t);
    const verifyToken = tokenOf(linkIn(await t.smtp!.waitForMail(account.email, VERIFY_SUBJECT), '/verify-email/'));
    expectError(await reset(verifyToken), 400, AUTH_MESSAGES.resetInvalid);
    expectError(await reset('made-up-token'), 400, AUTH_MESSAGES.resetInvalid);
    expectValidation(
      await t.request('POST', '/api/auth/reset-password', { body: { newPassword: 'a-brand-new-password' } }),
      'token',
      'Token is required',
    );
  });

  it('counts a reset of an unverified account as verifying it, since the link proved the address', async () => {
    const account = await register(t);
    const { token } = await requestReset(account);
    expect((await reset(token, 'a-brand-new-password')).status).toBe(200);
    expect((await login(t, account.username, 'a-brand-new-password')).status).toBe(200);
  });

  it('rejects a forgot-password call with an invalid address with 400 and the spec message', async () => {
    expectValidation(await forgot('not-an-email'), 'email', MESSAGES.emailInvalid);
  });
});
