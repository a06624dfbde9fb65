import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_MESSAGES } from '@shared/contracts/keys';
import { apiClient } from '../../../../tests/support/api-client';
import { expectError, manualClock, startCheckedApp } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { hashToken } from '../../lib/tokens';
import { EXPIRED_KEY_KEPT_MS, KEY_LAST_USED_PRECISION_MS } from './keys.service';

const HOUR = 60 * 60 * 1000;

describe.each(databaseKinds)('API keys, on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  /** Calls under /v1 answer in OpenAI's shape, which the checked client would refuse. */
  const modelsWith = (key: string) =>
    apiClient(t.url).request('GET', '/v1/models', { headers: { authorization: `Bearer ${key}` } });
  beforeAll(async () => {
    t = await startCheckedApp({ kind, clock, sweepIntervalMs: 50 });
  });
  afterAll(() => t.close());

  it('shows a new key once, stores only its hash and prefix, and lists it without the key', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { name: 'Meal planner' });
    const created = await t.request('POST', '/api/keys', { token, body: { name: 'CI', botId: bot.id } });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^botty_[0-9A-Za-z]{43}$/);
    expect(created.body).toMatchObject({
      name: 'CI',
      prefix: key.slice(0, 10),
      botId: bot.id,
      botName: 'Meal planner',
      lastUsedAt: null,
      expiresAt: null,
    });

    const row = await t.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashToken(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const list = await t.request('GET', '/api/keys', { token });
    expect(list.status).toBe(200);
    const { key: _, ...shown } = created.body;
    expect(list.body.keys).toEqual([shown]);
    expect(JSON.stringify(list.body)).not.toContain(key.slice(10));
  });

  it('refuses a bad name, a past expiry and another user’s bot', async () => {
    const { token } = await signUp(t);
    const other = await signUp(t);
    const theirs = await createBot(t, other.token);
    const blank = await t.request('POST', '/api/keys', { token, body: { name: '  ', botId: null } });
    expectError(blank, 400, KEY_MESSAGES.nameRequired);
    const past = await t.request('POST', '/api/keys', {
      token,
      body: { name: 'old', botId: null, expiresAt: new Date(clock.now().getTime() - 1000).toISOString() },
    });
    expectError(past, 400, KEY_MESSAGES.expiresAtPast);
    const notIso = await t.request('POST', '/api/keys', { token, body: { name: 'x', botId: null, expiresAt: 'soon' } });
    expectError(notIso, 400, KEY_MESSAGES.expiresAtInvalid);
    const stranger = await t.request('POST', '/api/keys', { token, body: { name: 'x', botId: theirs.id } });
    expect(stranger.status).toBe(404);
    expect((await t.request('GET', '/api/keys', { token })).body.keys).toEqual([]);
  });

  it('records when a key was last used, and revokes it with immediate effect, for its owner only', async () => {
    const { token } = await signUp(t);
    const other = await signUp(t);
    const created = await t.request('POST', '/api/keys', { token, body: { name: 'all', botId: null } });
    expect((await modelsWith(created.body.key)).status).toBe(200);
    const [listed] = (await t.request('GET', '/api/keys', { token })).body.keys;
    const firstUse = clock.now().toISOString();
    expect(listed.lastUsedAt).toBe(firstUse);
    // To the minute: a busy key does not write its row on every call.
    const lastUsed = async () => (await t.request('GET', '/api/keys', { token })).body.keys[0].lastUsedAt;
    clock.advance(KEY_LAST_USED_PRECISION_MS - 1000);
    await modelsWith(created.body.key);
    expect(await lastUsed()).toBe(firstUse);
    clock.advance(1000);
    await modelsWith(created.body.key);
    expect(await lastUsed()).toBe(clock.now().toISOString());

    const foreign = await t.request('DELETE', `/api/keys/${created.body.id}`, { token: other.token });
    expectError(foreign, 404, KEY_MESSAGES.notFound);
    expect((await modelsWith(created.body.key)).status).toBe(200);

    const revoked = await t.request('DELETE', `/api/keys/${created.body.id}`, { token });
    expect(revoked.body).toEqual({ message: KEY_MESSAGES.revoked });
    const refused = await modelsWith(created.body.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    expect((await t.request('DELETE', `/api/keys/${created.body.id}`, { token })).status).toBe(404);
    expect((await t.request('GET', '/api/keys', { token })).body.keys).toEqual([]);
  });

  it('refuses a key once it has expired', async () => {
    const { token } = await signUp(t);
    const expiresAt = new Date(clock.now().getTime() + HOUR).toISOString();
    const created = await t.request('POST', '/api/keys', { token, body: { name: 'short', botId: null, expiresAt } });
    expect(created.body.expiresAt).toBe(expiresAt);
    expect((await modelsWith(created.body.key)).status).toBe(200);
    clock.advance(HOUR);
    expect((await modelsWith(created.body.key)).status).toBe(401);
    // Listed as expired for a while, then purged.
    expect((await t.request('GET', '/api/keys', { token })).body.keys).toHaveLength(1);
    clock.advance(EXPIRED_KEY_KEPT_MS);
    const stored = () => t.db.kysely.selectFrom('api_keys').select('id').where('id', '=', created.body.id).execute();
    await expect.poll(async () => (await stored()).length).toBe(0);
  });

  it('goes with its bot, and never answers to a session token or a made-up key', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const created = await t.request('POST', '/api/keys', { token, body: { name: 'one', botId: bot.id } });
    expect((await t.request('DELETE', `/api/bots/${bot.id}`, { token })).status).toBe(200);
    expect((await modelsWith(created.body.key)).status).toBe(401);
    expect((await modelsWith(token)).status).toBe(401);
    expect((await modelsWith(`botty_${'a'.repeat(43)}`)).status).toBe(401);
  });
});
