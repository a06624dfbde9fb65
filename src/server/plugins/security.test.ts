import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

const HSTS = 'strict-transport-security';

describe('Strict-Transport-Security goes only with HTTPS', () => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp();
    proxied = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await proxied.close();
    await direct.close();
  });

  const overHttps = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };

  it('is absent over plain HTTP, with or without a proxy', async () => {
    for (const t of [direct, proxied]) {
      const res = await t.request('GET', '/api/health');
      expect(res.status).toBe(200);
      expect(res.headers.get(HSTS)).toBeNull();
      // The other headers stay.
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('is present when a trusted proxy says the request came over HTTPS', async () => {
    const res = await proxied.request('GET', '/api/health', { headers: overHttps });
    expect(res.headers.get(HSTS)).toBe('max-age=31536000; includeSubDomains');
  });

  it('is absent when an untrusted client only claims HTTPS', async () => {
    const res = await direct.request('GET', '/api/health', { headers: overHttps });
    expect(res.headers.get(HSTS)).toBeNull();
  });
});
