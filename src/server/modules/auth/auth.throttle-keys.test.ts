import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, startCheckedApp, tokenFor } from '../../../../tests/support/auth-api';
import { redisTestSpace, TEST_REDIS_URL } from '../../../../tests/support/redis';
import type { TestApp } from '../../../../tests/support/test-app';

describe('rate-limit keys in Redis', () => {
  const space = redisTestSpace();
  let t: TestApp;
  beforeAll(async () => {
    t = await startCheckedApp({
      env: {
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: space.prefix,
        RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '2',
      },
      authRateLimit: undefined,
    });
  });
  afterAll(async () => {
    await t.close();
    await space.cleanup();
  });

  it('name no account, while the per-account limit still counts each account on its own', async () => {
    const victim = await register(t, { username: 'Victim_Name' });
    const other = await register(t, { username: 'Other_Name' });
    const statuses = [];
    for (const username of ['victim_name', 'VICTIM_NAME', 'Victim_Name']) {
      statuses.push((await t.request('POST', '/api/auth/login', { body: { username, password: 'wrong' } })).status);
    }
    // The third attempt is over the limit and sends the lock notice, which counts under its own key.
    expect(statuses).toEqual([401, 401, 429]);
    expect(await tokenFor(t, other)).toEqual(expect.any(String));

    const admin = await space.connect();
    const keys = await admin.keys(`${space.prefix}*`);
    expect(keys.some((key) => key.includes('signin-account:'))).toBe(true);
    expect(keys.some((key) => key.includes('signin-lock-mail:'))).toBe(true);
    for (const key of keys) {
      expect(key.toLowerCase()).not.toContain(victim.username.toLowerCase());
      expect(key.toLowerCase()).not.toContain(other.username.toLowerCase());
    }
  });
});
