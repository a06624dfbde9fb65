import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register, startCheckedApp, tokenFor } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import type { TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('throttles on passwords, on %s', (kind) => {
  let t: TestApp;
  // A fresh server per test: the per-address limit of 3 also counts the registrations each test makes.
  beforeEach(async () => {
    // One proxy in front, so each request below can come from its own address, as a botnet's would.
    t = await startCheckedApp({
      kind,
      env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '4' },
      authRateLimit: undefined,
    });
  });
  afterEach(() => t.close());

  const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });

  it('limits sign-in attempts on one account from many addresses, and only on that account', async () => {
    const victim = await register(t);
    const bystander = await register(t);
    const statuses = [];
    for (let n = 1; n <= 5; n++) {
      const res = await t.request('POST', '/api/auth/login', {
        body: { username: n % 2 ? victim.username : victim.username.toUpperCase(), password: 'wrong-password' },
        headers: from(n),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const other = await t.request('POST', '/api/auth/login', {
      body: { username: bystander.username, password: bystander.password },
      headers: from(99),
    });
    expect(other.status).toBe(200);
  });

  it.each([
    [
      'change password',
      'POST',
      '/api/auth/change-password',
      { currentPassword: 'wrong', newPassword: 'another-password' },
    ],
    ['delete account', 'DELETE', '/api/account', { password: 'wrong-password' }],
  ])('limits password checks per signed-in user: %s', async (_what, method, path, body) => {
    const account = await register(t);
    const token = await tokenFor(t, account);
    const statuses = [];
    for (let n = 1; n <= 4; n++)
      statuses.push((await t.request(method, path, { token, body, headers: from(n + 10) })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    // Another user is not affected.
    const other = await register(t);
    expect((await t.request(method, path, { token: await tokenFor(t, other), body })).status).toBe(400);
  });
});
