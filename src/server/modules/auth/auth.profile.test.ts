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

const IMAGE_URL_MESSAGE = 'Profile image must be an http(s) URL';

describe.each(databaseKinds)('PATCH /api/auth/profile on %s', (kind) => {
  let t: TestApp;
  let me: Account;
  let myToken: string;
  let other: Account;
  let otherToken: string;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    await register(t);
    me = await register(t);
    other = await register(t);
    myToken = await tokenFor(t, me);
    otherToken = await tokenFor(t, other);
  });
  afterAll(() => t.close());

  const patch = (body: Record<string, unknown>, token: string | null = myToken) =>
    t.request('PATCH', '/api/auth/profile', { token: token ?? undefined, body });

  it('changes fullName, username and profileImageUrl, answering the updated user', async () => {
    const username = `${me.username}_renamed`;
    const changes = { fullName: 'Ada Lovelace', username, profileImageUrl: 'https://img.example.com/ada.png' };
    const res = await patch(changes);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...(await currentUser(t, myToken)).body, ...changes });
    expect(res.body).toMatchObject({ id: me.id, email: me.email });

    expect((await login(t, username, me.password)).status).toBe(200);
    expectError(await login(t, me.username, me.password), 401, AUTH_MESSAGES.invalidCredentials);
    me.username = username;
  });

  it('clears fullName and profileImageUrl when sent empty, and leaves absent fields alone', async () => {
    await patch({ fullName: 'Someone', profileImageUrl: 'http://img.example.com/x.png' });
    const res = await patch({ fullName: '', profileImageUrl: '' });
    expect(res.body).toMatchObject({ fullName: null, profileImageUrl: null, username: me.username });
    expect((await patch({})).body).toMatchObject({ fullName: null, profileImageUrl: null, username: me.username });
  });

  it('lets a user change the letter case of their own username', async () => {
    const res = await patch({ username: me.username.toUpperCase() });
    expect(res.body.username).toBe(me.username.toUpperCase());
    me.username = res.body.username;
  });

  it("answers 409 for another user's username in any letter case", async () => {
    for (const username of [other.username, other.username.toUpperCase()]) {
      expectError(await patch({ username }), 409, AUTH_MESSAGES.usernameTaken);
    }
    expect((await currentUser(t, myToken)).body.username).toBe(me.username);
  });

  it.each([['javascript:alert(1)'], ['data:image/png;base64,AAAA'], ['ftp://example.com/a.png'], ['not a url']])(
    'refuses profileImageUrl %s with 400',
    async (profileImageUrl) => {
      expectValidation(await patch({ profileImageUrl }), 'profileImageUrl', IMAGE_URL_MESSAGE);
    },
  );

  it('refuses a username under 3 characters with the spec message', async () => {
    expectValidation(await patch({ username: 'ab' }), 'username', MESSAGES.usernameMin);
  });

  it('never changes the e-mail address, role or verification', async () => {
    const res = await patch({
      email: 'changed@example.com',
      role: 'superadmin',
      emailVerified: false,
      fullName: 'Still Me',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: me.email, role: 'user', emailVerified: true, fullName: 'Still Me' });
  });

  it('only ever touches the caller, whatever ids the body names', async () => {
    const before = (await currentUser(t, otherToken)).body;
    const res = await patch({ id: other.id, userId: other.id, fullName: 'Not Yours' });
    expect(res.body.id).toBe(me.id);
    expect((await currentUser(t, otherToken)).body).toEqual(before);
  });

  it('answers 401 without a valid token, before looking at the body', async () => {
    expectError(await patch({ fullName: 'Anon' }, null), 401, 'Authentication required');
    expectError(await patch({ profileImageUrl: 'javascript:alert(1)' }, 'garbage'), 401, 'Authentication required');
  });
});
