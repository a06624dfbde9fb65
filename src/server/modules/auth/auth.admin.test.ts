import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  currentUser,
  expectError,
  login,
  manualClock,
  newAccount,
  register,
  startCheckedApp,
  tokenFor,
  userRow,
  type Account,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from './auth.service';
import { ensureBootstrapAdmin } from './bootstrap-admin.service';

describe.each(databaseKinds)('POST /api/auth/create-admin on %s', (kind) => {
  let t: TestApp;
  let superadmin: Account;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    superadmin = await register(t);
  });
  afterAll(() => t.close());

  const createAdmin = (token: string | undefined, account = newAccount()) =>
    t.request('POST', '/api/auth/create-admin', { token, body: { ...account, role: 'superadmin' } });

  it('answers 401 without a token', async () => {
    expectError(await createAdmin(undefined), 401, 'Authentication required');
  });

  it('answers 403 to an ordinary user and creates nobody', async () => {
    const account = newAccount();
    expectError(await createAdmin(await tokenFor(t, await register(t)), account), 403, AUTH_MESSAGES.adminOnly);
    expect((await login(t, account.username, account.password)).status).toBe(401);
  });

  it('lets a superadmin create another superadmin, who can sign in', async () => {
    const account = newAccount();
    const res = await createAdmin(await tokenFor(t, superadmin), account);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: account.username,
      email: account.email,
      role: 'superadmin',
      emailVerified: true,
    });
    expect((await login(t, account.username, account.password)).body.user.role).toBe('superadmin');
  });

  it('answers 409 when a superadmin reuses a taken username', async () => {
    const res = await createAdmin(await tokenFor(t, superadmin), newAccount({ username: superadmin.username }));
    expectError(res, 409, AUTH_MESSAGES.usernameTaken);
  });
});

describe.each(databaseKinds)('ensureBootstrapAdmin on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const bootstrap = (admin: { username: string; email: string; password: string }) =>
    ensureBootstrapAdmin({ db: t.db, clock }, admin);
  beforeAll(async () => {
    t = await startCheckedApp({ kind, smtp: true });
  });
  afterAll(() => t.close());

  it('creates a verified superadmin when the account is absent', async () => {
    const admin = newAccount();
    await bootstrap(admin);
    const res = await login(t, admin.username, admin.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      username: admin.username,
      email: admin.email,
      role: 'superadmin',
      emailVerified: true,
    });
  });

  it("brings an existing account's e-mail and password up to date and signs its old sessions out", async () => {
    const admin = newAccount();
    await bootstrap(admin);
    const oldToken = await tokenFor(t, admin);
    const updated = { ...admin, email: `New.${admin.email}`, password: 'a-rotated-password' };
    await bootstrap(updated);

    expect((await currentUser(t, oldToken)).status).toBe(401);
    expect((await login(t, admin.username, admin.password)).status).toBe(401);
    const res = await login(t, admin.username, updated.password);
    expect(res.body.user).toMatchObject({ email: updated.email.toLowerCase(), role: 'superadmin' });
  });

  it('leaves sessions and the stored hash alone when nothing changed, so restarts keep the admin signed in', async () => {
    const admin = newAccount();
    await bootstrap(admin);
    const token = await tokenFor(t, admin);
    const { id } = (await currentUser(t, token)).body;
    const before = await userRow(t, id);
    await bootstrap(admin);
    expect((await userRow(t, id)).password_hash).toBe(before.password_hash);
    expect((await currentUser(t, token)).status).toBe(200);
  });

  it('promotes and verifies an existing ordinary account of that name', async () => {
    const account = await register(t);
    await bootstrap(account);
    expect(await userRow(t, account.id)).toMatchObject({ role: 'superadmin' });
    expect((await login(t, account.username, account.password)).status).toBe(200);
  });

  it("refuses, naming ADMIN_EMAIL, an e-mail that belongs to someone else's account", async () => {
    const someone = await register(t);
    const attempt = bootstrap(newAccount({ email: someone.email.toUpperCase() }));
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(/^ADMIN_EMAIL: /);
    expect(await userRow(t, someone.id)).toMatchObject({ role: 'user' });
  });
});
