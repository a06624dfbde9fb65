import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
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
