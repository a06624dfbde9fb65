import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidation, startCheckedApp } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { signUp, type TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('preferences API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
  });
  afterAll(() => t.close());

  it('keeps pins in order and the dark-mode choice per account, and an emptied pin list stays empty', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    const get = (token = me.token) => t.request('GET', '/api/auth/preferences', { token });
    const put = (body: unknown, token = me.token) => t.request('PUT', '/api/auth/preferences', { token, body });
    expect((await get()).body).toEqual({ pinnedBots: [], darkMode: null });

    expect((await put({ pinnedBots: [3, 1, 3, 2], darkMode: true })).body).toEqual({
      pinnedBots: [3, 1, 2],
      darkMode: true,
    });
    // A second device signs in with a new session of the same account.
    const again = await t.request('POST', '/api/auth/login', {
      body: { username: me.username, password: me.password },
    });
    expect((await get(again.body.token)).body).toEqual({ pinnedBots: [3, 1, 2], darkMode: true });
    expect((await get(other.token)).body).toEqual({ pinnedBots: [], darkMode: null });

    await put({ pinnedBots: [], darkMode: false });
    expect((await get()).body).toEqual({ pinnedBots: [], darkMode: false });

    expectValidation(await put({ pinnedBots: ['x'], darkMode: null }), 'pinnedBots.0', 'Pinned bots must be bot ids');
    expect((await put({ pinnedBots: [] })).status).toBe(400);
    expectError(await get('bad-token'), 401, 'Authentication required');
  });
});
