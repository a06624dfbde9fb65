import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/dialect';
import { createTestDb, databaseKinds } from '../../../../tests/support/databases';
import { startTcpProxy } from '../../../../tests/support/tcp-proxy';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('health and plumbing on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind });
  });
  afterAll(() => t.close());

  it('answers 200 with the database kind', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: kind });
  });

  it('answers 503 once the database is gone', async () => {
    const other = await startTestApp({ kind });
    await other.db.close();
    const res = await other.request('GET', '/api/health');
    expect(res.status).toBe(503);
    await other.app.close();
    await other.testDb.drop();
  });

  it('answers readiness with 200 when the database answers, and says there is no Redis to miss', async () => {
    const res = await t.request('GET', '/api/health/ready');
    expect(res).toMatchObject({ status: 200, body: { status: 'ready', database: 'up', redis: 'none', notes: [] } });
  });

  it('answers readiness with 503 once the instance is draining', async () => {
    const other = await startTestApp({ kind });
    await other.app.drain(0);
    expect(await other.request('GET', '/api/health/ready')).toMatchObject({
      status: 503,
      body: { status: 'draining', database: 'up' },
    });
    expect(await other.request('GET', '/api/auth/user')).toMatchObject({ status: 503, body: { code: 'UNAVAILABLE' } });
    // Liveness still answers: the process is fine, only leaving.
    expect((await other.request('GET', '/api/health')).status).toBe(200);
    await other.close();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String), requestId: expect.any(String) });
  });

  it('rejects malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await t.request('POST', '/api/auth/login', {
      body: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(expect.any(String));
    const big = await t.request('POST', '/api/auth/login', {
      body: { username: 'x'.repeat(2 * 1024 * 1024), password: 'y' },
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('serves the OpenAPI document and its browsable page', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/auth/register', '/api/health']),
    );
    const page = await t.request('GET', '/api/docs/');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('swagger');
  });

  it('sends security headers with a self-only content security policy', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe.runIf(databaseKinds.includes('postgres'))('readiness while PostgreSQL is unreachable', () => {
  it('answers 503 while the connection is cut, and 200 once it is back', async () => {
    const testDb = await createTestDb('postgres');
    if (testDb.target.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const direct = new URL(testDb.target.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughProxy = new URL(testDb.target.url);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    const db = openDatabase({ ...testDb.target, url: throughProxy.toString() });
    const t = await startTestApp({ testDb: { db, target: testDb.target, drop: async () => {} } });
    try {
      expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
      proxy.cut();
      expect(await t.request('GET', '/api/health/ready')).toMatchObject({
        status: 503,
        body: { status: 'unavailable', database: 'down' },
      });
      proxy.restore();
      expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
    } finally {
      await t.close();
      await db.close();
      await proxy.close();
      await testDb.drop();
    }
  });
});
