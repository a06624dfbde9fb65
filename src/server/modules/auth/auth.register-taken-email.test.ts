import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { linkIn } from '../../../../tests/support/smtp-receiver';
import {
  expectError,
  login,
  mailsTo,
  newAccount,
  register,
  startCheckedApp,
  VERIFY_SUBJECT,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from './auth.service';

const TAKEN_SUBJECT = /Someone tried to register with your email address/;

describe.each(databaseKinds)('registering with a taken e-mail while verification is required, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, smtp: true });
    // Takes the superadmin seat, so every account below is an ordinary one awaiting verification.
    await register(t);
  });
  afterAll(() => t.close());

  const registerRaw = (body: Record<string, unknown>) => t.request('POST', '/api/auth/register', { body });
  const accountsWithEmail = (email: string) =>
    t.db.kysely.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute();

  it('answers as for a new address, creates nothing and mails the owner instead', async () => {
    const owner = await register(t);
    await t.smtp!.waitForMail(owner.email, VERIFY_SUBJECT);

    const fresh = await registerRaw({ ...newAccount(), fullName: '', role: 'user' });
    const intruder = newAccount({ email: owner.email.toUpperCase(), password: 'an-intruders-password' });
    const taken = await registerRaw({ ...intruder, fullName: '', role: 'user' });

    expect(taken.status).toBe(201);
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.body).toEqual({ message: AUTH_MESSAGES.registeredVerify, needsVerification: true });

    const mail = await t.smtp!.waitForMail(owner.email, TAKEN_SUBJECT);
    expect(mail.text).toMatch(/Sign in: http:\/\/botty\.test\/login\s/);
    expect(linkIn(mail, '/forgot')).toBe('http://botty.test/forgot-password');
    expect(mail.text).toContain(owner.username);
    expect(await accountsWithEmail(owner.email)).toHaveLength(1);
    expect(
      await t.db.kysely.selectFrom('users').select('id').where('username', '=', intruder.username).execute(),
    ).toEqual([]);
    // The intruder's password opens nothing; the owner's account is untouched.
    expectError(await login(t, owner.email, intruder.password), 401, AUTH_MESSAGES.invalidCredentials);
    expect(mailsTo(t, owner.email, VERIFY_SUBJECT)).toHaveLength(1);
  });

  it('takes about as long for a taken address as for a new one: both hash the password', async () => {
    const owner = await register(t);
    const timed = async (email: string) => {
      const start = performance.now();
      expect((await registerRaw({ ...newAccount({ email }), fullName: '', role: 'user' })).status).toBe(201);
      return performance.now() - start;
    };
    const fresh: number[] = [];
    const taken: number[] = [];
    // Interleaved, so a busy moment of the machine weighs on both alike; medians of five.
    for (let i = 0; i < 5; i++) {
      fresh.push(await timed(newAccount().email));
      taken.push(await timed(owner.email));
    }
    const median = (times: number[]) => times.sort((a, b) => a - b)[2]!;
    // The hash is most of either; a new address also commits its account and its link (a busy PostgreSQL made
    // that half of the time once), and a taken one skipping the hash would answer in a few milliseconds.
    expect(median(taken)).toBeGreaterThan(median(fresh) / 3);
    expect(median(taken)).toBeLessThan(median(fresh) * 3);
  });

  it('still names a taken username, which is public anyway', async () => {
    const owner = await register(t);
    const res = await registerRaw({ ...newAccount(), username: owner.username.toUpperCase() });
    expectError(res, 409, AUTH_MESSAGES.usernameTaken);
  });

  it('creates one account when several sign up with one new address at once, answering each alike', async () => {
    const email = newAccount().email;
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => registerRaw({ ...newAccount({ email }), fullName: '', role: 'user' })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    for (const res of results) expect(res.body).toEqual(results[0]!.body);
    expect(await accountsWithEmail(email)).toHaveLength(1);
  });
});
