import { MESSAGES } from '@shared/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  currentUser,
  expectError,
  expectValidation,
  login,
  register,
  startCheckedApp,
  tokenFor,
  type Account,
} from '../../../../tests/support/auth-api';
import type { TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from './auth.service';

const AUTH_REQUIRED = 'Authentication required';

describe.each(databaseKinds)('sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    await register(t);
  });
  afterAll(() => t.close());

  describe('GET /api/auth/user', () => {
    it.each([
      ['no token', {}],
      ['a garbage token', { token: 'not-a-real-token' }],
      ['a non-bearer scheme', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }],
      ['an empty bearer', { headers: { authorization: 'Bearer ' } }],
    ])('answers 401 to %s', async (_, init) => {
      expectError(await t.request('GET', '/api/auth/user', init), 401, AUTH_REQUIRED);
    });

    it('answers the signed-in user', async () => {
      const account = await register(t);
      const res = await currentUser(t, await tokenFor(t, account));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: account.id,
        username: account.username,
        email: account.email,
        role: 'user',
        fullName: null,
        profileImageUrl: null,
        emailVerified: true,
        createdAt: expect.any(String),
      });
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes that token only', async () => {
      const account = await register(t);
      const leaving = await tokenFor(t, account);
      const staying = await tokenFor(t, account);

      const res = await t.request('POST', '/api/auth/logout', { token: leaving });
      expect(res).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.loggedOut } });
      expect((await currentUser(t, leaving)).status).toBe(401);
      expect((await t.request('POST', '/api/auth/logout', { token: leaving })).status).toBe(401);
      expect((await currentUser(t, staying)).status).toBe(200);
    });

    it('answers 401 without a token', async () => {
      expectError(await t.request('POST', '/api/auth/logout'), 401, AUTH_REQUIRED);
    });
  });

  describe('POST /api/auth/change-password', () => {
    const changePassword = (token: string | undefined, body: Record<string, unknown>) =>
      t.request('POST', '/api/auth/change-password', { token, body });

    let account: Account;
    let token: string;
    beforeAll(async () => {
      account = await register(t);
      token = await tokenFor(t, account);
    });

    it('refuses a wrong current password with 400 and changes nothing', async () => {
      const res = await changePassword(token, {
        currentPassword: 'not-the-password',
        newPassword: 'brand-new-password',
      });
      expectError(res, 400, AUTH_MESSAGES.currentPasswordWrong);
      expect((await login(t, account.username, account.password)).status).toBe(200);
    });

    it('refuses a new password under 8 characters with the spec message', async () => {
      const res = await changePassword(token, { currentPassword: account.password, newPassword: 'short' });
      expectValidation(res, 'newPassword', MESSAGES.passwordMin);
    });

    it('answers 401 without a token, before looking at the body', async () => {
      expectError(
        await changePassword(undefined, { currentPassword: account.password, newPassword: 'brand-new-password' }),
        401,
        AUTH_REQUIRED,
      );
      expectError(await changePassword(undefined, {}), 401, AUTH_REQUIRED);
    });

    it('changes the password, keeps the caller signed in and signs every other session out', async () => {
      const otherDevice = await tokenFor(t, account, true);
      const newPassword = 'brand-new-password';
      const res = await changePassword(token, { currentPassword: account.password, newPassword });
      expect(res).toMatchObject({ status: 200, body: { message: AUTH_MESSAGES.passwordChanged } });

      expect((await currentUser(t, token)).status).toBe(200);
      expect((await currentUser(t, otherDevice)).status).toBe(401);
      expectError(await login(t, account.username, account.password), 401, AUTH_MESSAGES.invalidCredentials);
      expect((await login(t, account.username, newPassword)).status).toBe(200);
    });
  });
});
