import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type Connection } from '@shared/contracts/admin';
import { person, type Person } from '../../../../tests/support/admin-api';
import { expectError } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { logSink } from '../../../../tests/support/log-sink';
import { secretWatch } from '../../../../tests/support/secret-watch';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

const API_KEY = 'sk-test-DO-NOT-LEAK-5f1c9a7e3b2d4c6a';

describe.each(databaseKinds)('AI connections on %s', (kind) => {
  let envLlm: FakeLlm;
  let ollama: FakeLlm;
  let t: TestApp;
  let admin: Person;
  let user: Person;
  const sink = logSink();
  /** Every answer the tests read, the log and the database file, to look for the key in all at the end. */
  const watch = secretWatch(() => t, sink);
  const { call } = watch;

  const addOllama = (body: Record<string, unknown> = {}) =>
    call('POST', '/api/admin/connections', {
      token: admin.token,
      body: {
        name: 'Ollama box',
        kind: 'openai-compatible',
        baseUrl: ollama.baseUrl,
        apiKey: API_KEY,
        allowPrivateAddress: true,
        ...body,
      },
    });

  beforeAll(async () => {
    envLlm = await startFakeLlm({ model: 'env-model' });
    ollama = await startFakeLlm({ model: 'llama3.1:8b', models: ['llama3.1:8b', 'qwen2.5:14b'], ollama: true });
    t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: envLlm.baseUrl, LLM_MODEL: 'env-model', LOG_LEVEL: 'debug' },
      logStream: sink.stream,
    });
    // The first account of an instance is its superadmin.
    admin = await person(t);
    user = await person(t);
  });

  afterAll(async () => {
    await t?.close();
    await envLlm?.close();
    await ollama?.close();
  });

  it('answers 401 without a session and 403 to a non-admin on every connections route', async () => {
    const created = await addOllama({ name: 'For the 403 test' });
    const id = created.body.id as number;
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/connections'],
      ['POST', '/api/admin/connections', { name: 'x', kind: 'openai' }],
      ['PATCH', `/api/admin/connections/${id}`, { name: 'taken over' }],
      ['DELETE', `/api/admin/connections/${id}`],
      ['POST', `/api/admin/connections/${id}/test`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expectError(await call(method, path, { token: user.token, body }), 403, ADMIN_MESSAGES.adminOnly);
    }
    const after = await call('GET', '/api/admin/connections', { token: admin.token });
    expect(after.body.connections.find((c: Connection) => c.id === id).name).toBe('For the 403 test');
  });

  it('lists the environment connection first, read-only, and refuses to change it', async () => {
    const res = await call('GET', '/api/admin/connections', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.connections[0]).toMatchObject({
      id: 0,
      kind: 'openai-compatible',
      baseUrl: envLlm.baseUrl,
      enabledModels: ['env-model'],
      readOnly: true,
      hasApiKey: false,
    });
    expectError(
      await call('PATCH', '/api/admin/connections/0', { token: admin.token, body: { name: 'Mine now' } }),
      409,
      ADMIN_MESSAGES.connectionReadOnly,
    );
    expectError(
      await call('DELETE', '/api/admin/connections/0', { token: admin.token }),
      409,
      ADMIN_MESSAGES.connectionReadOnly,
    );
    expectError(
      await call('PATCH', '/api/admin/connections/999999', { token: admin.token, body: { name: 'x' } }),
      404,
      ADMIN_MESSAGES.connectionNotFound,
    );
  });

  it('refuses a loopback or private base URL unless the admin allows it for the connection', async () => {
    for (const baseUrl of [ollama.baseUrl, 'http://10.1.2.3:11434/v1', 'http://localhost:11434/v1']) {
      const refused = await addOllama({ baseUrl, allowPrivateAddress: undefined });
      expect(refused.status, baseUrl).toBe(400);
      expect(refused.body.message).toMatch(/^Base URL: this address is not allowed \(.+\)/);
    }
    const allowed = await addOllama();
    expect(allowed.status).toBe(201);
    expect(allowed.body).toMatchObject({ hasApiKey: true, apiKeyLast4: API_KEY.slice(-4), allowPrivateAddress: true });
    // Taking the permission back refuses the address it was given for.
    const withdrawn = await call('PATCH', `/api/admin/connections/${allowed.body.id}`, {
      token: admin.token,
      body: { allowPrivateAddress: false },
    });
    expect(withdrawn.status).toBe(400);
    const openAiCompatibleWithoutUrl = await call('POST', '/api/admin/connections', {
      token: admin.token,
      body: { name: 'No URL', kind: 'openai-compatible' },
    });
    expectError(openAiCompatibleWithoutUrl, 400, 'Base URL: required for an OpenAI-compatible connection');
  });

  it('tests a connection: an Ollama lists its models with sizes, an OpenAI-style server its /models', async () => {
    const created = await addOllama();
    const tested = await call('POST', `/api/admin/connections/${created.body.id}/test`, { token: admin.token });
    expect(tested.body).toEqual({
      ok: true,
      models: [
        { model: 'llama3.1:8b', sizeBytes: 1e9 },
        { model: 'qwen2.5:14b', sizeBytes: 2e9 },
      ],
      error: null,
    });
    const plain = await call('POST', '/api/admin/connections', {
      token: admin.token,
      body: { name: 'Env twin', kind: 'openai', baseUrl: envLlm.baseUrl, apiKey: API_KEY, allowPrivateAddress: true },
    });
    const listed = await call('POST', `/api/admin/connections/${plain.body.id}/test`, { token: admin.token });
    expect(listed.body).toEqual({ ok: true, models: [{ model: 'env-model', sizeBytes: null }], error: null });
    expect(envLlm.listRequests.at(-1)?.authorization).toBe(`Bearer ${API_KEY}`);

    const down = await call('PATCH', `/api/admin/connections/${plain.body.id}`, {
      token: admin.token,
      body: { baseUrl: 'http://127.0.0.1:9/v1' },
    });
    expect(down.status).toBe(200);
    const failed = await call('POST', `/api/admin/connections/${plain.body.id}/test`, { token: admin.token });
    expect(failed.body).toEqual({ ok: false, models: [], error: 'http://127.0.0.1:9 is not reachable' });
  });

  it('tests an Anthropic connection with its own headers, and a key sealed with an earlier SECRET_KEY as none', async () => {
    const anthropic = await call('POST', '/api/admin/connections', {
      token: admin.token,
      body: { name: 'Claude', kind: 'anthropic', baseUrl: envLlm.baseUrl, apiKey: API_KEY, allowPrivateAddress: true },
    });
    expect(anthropic.status).toBe(201);
    const tested = await call('POST', `/api/admin/connections/${anthropic.body.id}/test`, { token: admin.token });
    expect(tested.body.ok).toBe(true);
    const headers = envLlm.listRequests.at(-1)!;
    expect(headers['x-api-key']).toBe(API_KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.authorization).toBeUndefined();

    // As after a rotation whose keys were not entered again: the server is asked without one, and the log says so.
    await t.db.kysely
      .updateTable('ai_connections')
      .set({ api_key_cipher: 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA' })
      .where('id', '=', anthropic.body.id)
      .execute();
    expect(
      (await call('POST', `/api/admin/connections/${anthropic.body.id}/test`, { token: admin.token })).body.ok,
    ).toBe(true);
    expect(envLlm.listRequests.at(-1)!['x-api-key']).toBeUndefined();
    expect(sink.entries()).toContainEqual(
      expect.objectContaining({ connectionId: anthropic.body.id, msg: expect.stringContaining('cannot be decrypted') }),
    );
  });

  it('enables models for GET /api/models, replaces and removes the key, deletes a connection', async () => {
    const created = await addOllama();
    const id = created.body.id as number;
    const enabled = await call('PATCH', `/api/admin/connections/${id}`, {
      token: admin.token,
      body: { enabledModels: ['qwen2.5:14b', 'qwen2.5:14b'] },
    });
    expect(enabled.body.enabledModels).toEqual(['qwen2.5:14b']);
    const models = await call('GET', '/api/models', { token: user.token });
    expect(models.status).toBe(200);
    expect(models.body.models).toContainEqual({
      id: `${id}/qwen2.5:14b`,
      label: 'qwen2.5:14b · Ollama box',
      connectionId: id,
      model: 'qwen2.5:14b',
    });
    expect(models.body.models[0].id).toBe('0/env-model');
    expect(models.body.defaultModel).toMatchObject({ id: '0/env-model' });
    expect((await call('GET', '/api/models')).status).toBe(401);

    const rekeyed = await call('PATCH', `/api/admin/connections/${id}`, {
      token: admin.token,
      body: { apiKey: 'sk-other-key-9999' },
    });
    expect(rekeyed.body).toMatchObject({ hasApiKey: true, apiKeyLast4: '9999' });
    const unkeyed = await call('PATCH', `/api/admin/connections/${id}`, { token: admin.token, body: { apiKey: '' } });
    expect(unkeyed.body).toMatchObject({ hasApiKey: false, apiKeyLast4: null });

    expect((await call('DELETE', `/api/admin/connections/${id}`, { token: admin.token })).status).toBe(200);
    const after = await call('GET', '/api/models', { token: user.token });
    expect(after.body.models.map((m: { id: string }) => m.id)).not.toContain(`${id}/qwen2.5:14b`);
    expect((await call('DELETE', `/api/admin/connections/${id}`, { token: admin.token })).status).toBe(404);
  });

  it('keeps the API key out of the database file, every answer, the log and bot exports', async () => {
    const created = await addOllama({ name: 'Secret keeper' });
    await call('PATCH', `/api/admin/connections/${created.body.id}`, {
      token: admin.token,
      body: { enabledModels: ['llama3.1:8b'] },
    });
    await call('POST', `/api/admin/connections/${created.body.id}/test`, { token: admin.token });
    const bot = await createBot(t, admin.token, { config: { model: `${created.body.id}/llama3.1:8b` } });
    const exported = await fetch(`${t.url}/api/bots/${bot.id}/export`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(exported.status).toBe(200);
    watch.keep(await exported.text());
    await call('GET', '/api/admin/connections', { token: admin.token });

    const stored = await t.db.kysely.selectFrom('ai_connections').select('api_key_cipher').execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.api_key_cipher ?? '').not.toContain(API_KEY.slice(0, 12));
    watch.expectNowhere([API_KEY], 'Secret keeper');
  });
});
