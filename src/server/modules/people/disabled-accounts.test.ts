import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { person, type Person } from '../../../../tests/support/admin-api';
import { apiClient } from '../../../../tests/support/api-client';
import { expectError, login } from '../../../../tests/support/auth-api';
import { anotherConnection, createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { redisTestSpace, TEST_REDIS_URL } from '../../../../tests/support/redis';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { AUTH_MESSAGES } from '../auth/auth.service';

/** A new API key of `owner` for all their bots. */
async function apiKeyOf(t: TestApp, owner: Person): Promise<string> {
  const res = await t.request('POST', '/api/keys', { token: owner.token, body: { name: 'script', botId: null } });
  expect(res.status).toBe(201);
  return res.body.key;
}

/** /v1 answers in OpenAI's error shape, so it is called without the checked client. */
const modelsWith = (t: TestApp, key: string) =>
  apiClient(t.url).request('GET', '/v1/models', { headers: { authorization: `Bearer ${key}` } });

const signedIn = async (t: TestApp, token: string) => (await t.request('GET', '/api/auth/user', { token })).status;

// Two instances, as behind a load balancer: one database, one Redis carrying the session cache's notices.
describe.each(databaseKinds)('disabled accounts, on two instances over %s and Redis', (kind) => {
  const space = redisTestSpace();
  let shared: TestDb;
  let a: TestApp;
  let b: TestApp;
  let superadmin: Person;
  beforeAll(async () => {
    shared = await createTestDb(kind);
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: space.prefix, SESSION_CACHE_MS: '60000' };
    a = await startTestApp({ testDb: shared, env });
    const second = anotherConnection(shared);
    b = await startTestApp({ testDb: second, env });
    superadmin = await person(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await space.cleanup();
  });

  const setDisabled = (id: number, disabled: boolean) =>
    a.request('PATCH', `/api/admin/users/${id}`, { token: superadmin.token, body: { disabled } });

  it('stops the account’s sessions and API keys on every instance, whatever they had cached', async () => {
    const someone = await person(a);
    const key = await apiKeyOf(a, someone);
    // Both instances have the session in their caches, and the key works on both.
    for (const t of [a, b]) {
      expect(await signedIn(t, someone.token)).toBe(200);
      expect((await modelsWith(t, key)).status).toBe(200);
    }

    const res = await setDisabled(someone.id, true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: someone.id, disabled: true });

    // The instance that disabled it forgets at once.
    expect(await signedIn(a, someone.token)).toBe(401);
    const refused = await modelsWith(a, key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    // The other hears of it through Redis a moment later, on a connection of its own that a request to it may
    // overtake: well within this, and far from SESSION_CACHE_MS.
    const soon = { timeout: 2_000, interval: 20 };
    await expect.poll(() => signedIn(b, someone.token), soon).toBe(401);
    await expect.poll(async () => (await modelsWith(b, key)).body.error?.code, soon).toBe('invalid_api_key');
    expect((await modelsWith(b, key)).status).toBe(401);
  });

  it('says the account is disabled at sign-in, only to the right password, and lets it in again once enabled', async () => {
    const someone = await person(a);
    const key = await apiKeyOf(a, someone);
    await setDisabled(someone.id, true);

    expectError(await login(b, someone.username, someone.password), 403, ADMIN_MESSAGES.accountDisabled);
    expectError(await login(b, someone.username, 'not-the-password'), 401, AUTH_MESSAGES.invalidCredentials);
    const listed = await a.request('GET', `/api/admin/users?q=${someone.username}`, { token: superadmin.token });
    expect(listed.body.users[0]).toMatchObject({ id: someone.id, disabled: true });

    const enabled = await setDisabled(someone.id, false);
    expect(enabled.body.disabled).toBe(false);
    const signIn = await login(b, someone.username, someone.password);
    expect(signIn.status).toBe(200);
    expect(await signedIn(a, signIn.body.token)).toBe(200);
    // Sessions from before stay ended (disabling signed the account out); its API keys work again.
    expect(await signedIn(a, someone.token)).toBe(401);
    expect((await modelsWith(b, key)).status).toBe(200);
  });
});
