import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { person, superadminAdminAndUser, type Person } from '../../../../tests/support/admin-api';
import {
  expectError,
  expectValidation,
  mailsTo,
  newAccount,
  nextMail,
  startCheckedApp,
  tokenOf,
  VERIFY_SUBJECT,
} from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { linkIn } from '../../../../tests/support/smtp-receiver';
import type { TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('people in the admin console, on %s', (kind) => {
  let t: TestApp;
  let superadmin: Person;
  let admin: Person;
  let user: Person;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    ({ superadmin, admin, user } = await superadminAdminAndUser(t));
  });
  afterAll(() => t.close());

  const users = (token: string, query = '') => t.request('GET', `/api/admin/users${query}`, { token });
  const patch = (token: string, id: number, body: unknown) =>
    t.request('PATCH', `/api/admin/users/${id}`, { token, body });

  it('lists accounts oldest first with their role, state, own limits and today’s usage', async () => {
    const res = await users(admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 25 });
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    const [first, second, third] = res.body.users;
    expect([first.id, second.id, third.id]).toEqual([superadmin.id, admin.id, user.id]);
    expect(third).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      role: 'user',
      fullName: null,
      emailVerified: true,
      disabled: false,
      createdAt: expect.any(String),
      limits: { dailyTokens: null, dailyReplies: null },
      today: {
        tokens: 0,
        replies: 0,
        limits: { dailyTokens: null, dailyReplies: null },
        resetsAt: expect.stringMatching(/T00:00:00\.000Z$/),
      },
    });
    expect(first.role).toBe('superadmin');
    expect(second.role).toBe('admin');
  });

  it('searches usernames, addresses and full names in any case; % and _ match themselves', async () => {
    const account = newAccount();
    const created = await t.request('POST', '/api/auth/register', {
      body: { ...account, email: `Quixote.${account.username}@Example.org`, fullName: 'Alonso de La Mancha' },
    });
    expect(created.status).toBe(201);
    const find = async (q: string) =>
      (await users(admin.token, `?q=${encodeURIComponent(q)}`)).body.users.map((u: { id: number }) => u.id);
    const id = created.body.user.id;
    expect(await find(account.username.toUpperCase())).toEqual([id]);
    expect(await find('QUIXOTE.')).toEqual([id]);
    expect(await find('la manCHA')).toEqual([id]);
    expect(await find('  mancha  ')).toEqual([id]);
    expect(await find('%')).toEqual([]);
    // As a wildcard, `_` would stand for the username's first letter.
    expect(await find(`_${account.username.slice(1)}`)).toEqual([]);
    expect((await users(admin.token, '?q=nobody-is-called-this')).body).toMatchObject({ users: [], total: 0 });
  });

  it('pages through the accounts and refuses a page size past 100', async () => {
    const all = (await users(admin.token, '?pageSize=100')).body;
    const second = (await users(admin.token, '?page=2&pageSize=2')).body;
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: all.total });
    expect(second.users.map((u: { id: number }) => u.id)).toEqual(
      all.users.slice(2, 4).map((u: { id: number }) => u.id),
    );
    expect((await users(admin.token, '?page=999&pageSize=2')).body).toMatchObject({ users: [], total: all.total });
    expect((await users(admin.token, '?pageSize=500')).status).toBe(400);
    expect((await users(admin.token, '?page=0')).status).toBe(400);
  });

  it('lets only a superadmin change roles, at once on the live session, and never a superadmin’s', async () => {
    const someone = await person(t);
    expectError(await patch(admin.token, someone.id, { role: 'admin' }), 403, ADMIN_MESSAGES.superadminOnly);
    expect((await users(someone.token)).status).toBe(403);

    const promoted = await patch(superadmin.token, someone.id, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: someone.id, role: 'admin' });
    // The session the person already had carries the new role from the next request on.
    expect((await t.request('GET', '/api/auth/user', { token: someone.token })).body.role).toBe('admin');
    expect((await users(someone.token)).status).toBe(200);

    expect((await patch(superadmin.token, someone.id, { role: 'user' })).body.role).toBe('user');
    expectError(await users(someone.token), 403, ADMIN_MESSAGES.adminOnly);

    expectError(
      await patch(superadmin.token, superadmin.id, { role: 'user' }),
      409,
      ADMIN_MESSAGES.superadminRoleFixed,
    );
    expectError(await patch(admin.token, superadmin.id, { role: 'user' }), 403, ADMIN_MESSAGES.superadminOnly);
    expectValidation(
      await patch(superadmin.token, someone.id, { role: 'superadmin' }),
      'role',
      'Role must be user or admin',
    );
  });

  it('sets an account’s own limits, clears one back to the role’s default, and shows what applies today', async () => {
    const someone = await person(t);
    const set = await patch(admin.token, someone.id, { limits: { dailyTokens: 5000, dailyReplies: 20 } });
    expect(set.status).toBe(200);
    expect(set.body.limits).toEqual({ dailyTokens: 5000, dailyReplies: 20 });
    expect(set.body.today.limits).toEqual({ dailyTokens: 5000, dailyReplies: 20 });

    const settings = await t.request('PATCH', '/api/admin/settings', {
      token: admin.token,
      body: { defaultLimits: { user: { dailyReplies: 7 } } },
    });
    expect(settings.status).toBe(200);
    const cleared = await patch(admin.token, someone.id, { limits: { dailyReplies: null } });
    expect(cleared.body.limits).toEqual({ dailyTokens: 5000, dailyReplies: null });
    expect(cleared.body.today.limits).toEqual({ dailyTokens: 5000, dailyReplies: 7 });

    expectValidation(
      await patch(admin.token, someone.id, { limits: { dailyTokens: -1 } }),
      'limits.dailyTokens',
      'Daily tokens cannot be negative',
    );
    await t.request('PATCH', '/api/admin/settings', {
      token: admin.token,
      body: { defaultLimits: { user: { dailyReplies: null } } },
    });
  });

  it('keeps a superadmin and oneself out of an admin’s reach', async () => {
    expectError(await patch(admin.token, superadmin.id, { disabled: true }), 403, ADMIN_MESSAGES.superadminProtected);
    expectError(
      await t.request('DELETE', `/api/admin/users/${superadmin.id}`, { token: admin.token }),
      403,
      ADMIN_MESSAGES.superadminProtected,
    );
    expectError(await patch(admin.token, admin.id, { disabled: true }), 409, ADMIN_MESSAGES.notYourself);
    expectError(
      await t.request('DELETE', `/api/admin/users/${superadmin.id}`, { token: superadmin.token }),
      409,
      ADMIN_MESSAGES.notYourself,
    );
    // Nothing changed: both still work.
    expect((await users(superadmin.token)).status).toBe(200);
    expect((await users(admin.token)).status).toBe(200);
    // Saying "enabled" of an enabled account changes nothing, so it is not refused.
    expect((await patch(admin.token, admin.id, { disabled: false })).status).toBe(200);
  });

  it('answers 404 for an account that does not exist', async () => {
    for (const res of [
      await patch(admin.token, 999_999, { disabled: true }),
      await t.request('DELETE', '/api/admin/users/999999', { token: admin.token }),
      await t.request('POST', '/api/admin/users/999999/resend-verification', { token: admin.token }),
    ]) {
      expectError(res, 404, ADMIN_MESSAGES.userNotFound);
    }
  });

  it('deletes an account with everything it owns, and its session stops', async () => {
    const someone = await person(t);
    const bot = await createBot(t, someone.token);
    const res = await t.request('DELETE', `/api/admin/users/${someone.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(ADMIN_MESSAGES.userDeleted);
    expect((await t.request('GET', '/api/auth/user', { token: someone.token })).status).toBe(401);
    const db = t.db.kysely;
    expect(await db.selectFrom('users').select('id').where('id', '=', someone.id).execute()).toEqual([]);
    expect(await db.selectFrom('bots').select('id').where('id', '=', bot.id).execute()).toEqual([]);
    expect((await users(admin.token, `?q=${someone.username}`)).body.users.map((u: { id: number }) => u.id)).toEqual(
      [],
    );
    expect((await users(user.token)).status).toBe(403);
  });
});

describe.each(databaseKinds)('resending verification from the admin console, on %s', (kind) => {
  let t: TestApp;
  let superadmin: Person;
  beforeAll(async () => {
    t = await startCheckedApp({ kind, smtp: true });
    superadmin = await person(t);
  });
  afterAll(() => t.close());

  it('mails a new link that verifies the account, then answers 409 once it is verified', async () => {
    const account = newAccount();
    await t.request('POST', '/api/auth/register', { body: account });
    await nextMail(t, account.email, VERIFY_SUBJECT, 0);
    const { id } = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow();
    const listed = await t.request('GET', `/api/admin/users?q=${account.username}`, { token: superadmin.token });
    expect(listed.body.users[0]).toMatchObject({ id, emailVerified: false });

    const resend = () => t.request('POST', `/api/admin/users/${id}/resend-verification`, { token: superadmin.token });
    const res = await resend();
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(ADMIN_MESSAGES.verificationSent);
    const mail = await nextMail(t, account.email, VERIFY_SUBJECT, 1);
    expect(mailsTo(t, account.email, VERIFY_SUBJECT)).toHaveLength(2);
    const verified = await t.request('GET', `/api/auth/verify-email/${tokenOf(linkIn(mail, '/verify-email/'))}`);
    expect(verified.status).toBe(200);

    expectError(await resend(), 409, ADMIN_MESSAGES.alreadyVerified);
  });
});
