import { MESSAGES } from '@shared/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  expectError,
  expectValidation,
  login,
  mailsTo,
  newAccount,
  register,
  startCheckedApp,
  userRow,
  VERIFY_SUBJECT,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from './auth.service';

const registerRaw = (t: TestApp, body: Record<string, unknown>) => t.request('POST', '/api/auth/register', { body });

describe.each(databaseKinds)('POST /api/auth/register on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    // Takes the superadmin seat, so every account below is an ordinary one.
    await register(t);
  });
  afterAll(() => t.close());

  it('creates the account, answers 201 with the user and stores only an argon2id hash', async () => {
    const account = newAccount({ username: 'Grace_Hopper' });
    const res = await registerRaw(t, {
      ...account,
      email: 'Grace@Example.COM',
      fullName: 'Grace Hopper',
      role: 'user',
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: AUTH_MESSAGES.registered,
      needsVerification: false,
      user: {
        id: expect.any(Number),
        username: 'Grace_Hopper',
        email: 'grace@example.com',
        role: 'user',
        fullName: 'Grace Hopper',
        profileImageUrl: null,
        emailVerified: true,
        createdAt: expect.any(String),
      },
    });
    const row = await userRow(t, res.body.user.id);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(account.password);
  });

  it.each([
    ['username', { username: 'ab' }, MESSAGES.usernameMin],
    ['username', { username: '  ab  ' }, MESSAGES.usernameMin],
    ['email', { email: 'not-an-email' }, MESSAGES.emailInvalid],
    ['email', { email: 'two@at@example.com' }, MESSAGES.emailInvalid],
    ['email', { email: undefined }, MESSAGES.emailInvalid],
    ['password', { password: '1234567' }, MESSAGES.passwordMin],
    ['password', { password: undefined }, MESSAGES.passwordMin],
  ])('rejects a bad %s (%j) with 400 and the spec message', async (field, override, message) => {
    const res = await registerRaw(t, { ...newAccount(), ...override });
    expectValidation(res, field, message);
  });

  it('lists the message of every invalid field at once', async () => {
    const res = await registerRaw(t, { username: 'ab', email: 'nope', password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'username', message: MESSAGES.usernameMin },
        { path: 'email', message: MESSAGES.emailInvalid },
        { path: 'password', message: MESSAGES.passwordMin },
      ]),
    );
  });

  it('answers 409 for a username taken in any letter case, and for a taken e-mail', async () => {
    const taken = await register(t);
    const sameName = await registerRaw(t, { ...newAccount(), username: taken.username.toUpperCase() });
    expectError(sameName, 409, AUTH_MESSAGES.usernameTaken);
    const sameEmail = await registerRaw(t, { ...newAccount(), email: taken.email.toUpperCase() });
    expectError(sameEmail, 409, AUTH_MESSAGES.emailTaken);
    // The original account still signs in with its own password.
    expect((await login(t, taken.username, taken.password)).status).toBe(200);
  });

  it.each([
    [
      'e-mail',
      (i: number) => newAccount({ username: `racer_${i}`, email: 'racer@example.com' }),
      AUTH_MESSAGES.emailTaken,
    ],
    [
      'username',
      (i: number) => newAccount({ username: 'racer', email: `racer_${i}@example.com` }),
      AUTH_MESSAGES.usernameTaken,
    ],
  ])(
    'lets only one of several simultaneous sign-ups with the same %s through, and names the clash',
    async (_, account, message) => {
      const results = await Promise.all([0, 1, 2, 3].map((i) => registerRaw(t, account(i))));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 201)) expectError(res, 409, message);
    },
  );
});

describe.each(databaseKinds)('who administers a fresh instance, on %s', (kind) => {
  it('makes the first account a verified superadmin, and later ones users even when they ask for more', async () => {
    const t = await startCheckedApp({ kind, smtp: true });
    try {
      const first = newAccount();
      const firstRes = await registerRaw(t, { ...first, role: 'user' });
      expect(firstRes.status).toBe(201);
      expect(firstRes.body).toMatchObject({
        needsVerification: false,
        user: { role: 'superadmin', emailVerified: true },
      });

      const second = newAccount();
      const secondRes = await registerRaw(t, { ...second, role: 'superadmin' });
      expect(secondRes.status).toBe(201);
      // Awaiting verification, the answer names no user (decision 0026).
      expect(secondRes.body).toEqual({ message: AUTH_MESSAGES.registeredVerify, needsVerification: true });
      const secondRow = await t.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('username', '=', second.username)
        .executeTakeFirstOrThrow();
      expect(secondRow).toMatchObject({ role: 'user' });
      expect(Boolean(secondRow.email_verified)).toBe(false);

      expect((await login(t, first.username, first.password)).status).toBe(200);
      await t.smtp!.waitForMail(second.email, VERIFY_SUBJECT);
      expect(mailsTo(t, first.email, VERIFY_SUBJECT)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('crowns exactly one superadmin when several sign up at the same moment', async () => {
    const t = await startCheckedApp({ kind });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => registerRaw(t, newAccount())));
      expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
      expect(results.filter((r) => r.body.user.role === 'superadmin')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
