import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

/** The routes anyone may call; every other API route is declared inside `signedInRoutes`. */
const PUBLIC_ROUTES = [
  'GET /api/health',
  // Readiness for load balancers (decision 0029).
  'GET /api/health/ready',
  'POST /api/auth/login',
  'POST /api/auth/register',
  // Whether the register page shows the form, asks for an invitation or says registration is closed (decision 0033).
  'GET /api/auth/registration',
  // Whether the register page asks for the setup code (decision 0030).
  'GET /api/auth/setup',
  'GET /api/auth/verify-email/{token}',
  'POST /api/auth/resend-verification',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'GET /api/shares/{token}',
  // The embedded widget's anonymous visitors (decision 0018).
  'GET /api/widget/{botId}/config',
  'GET /api/widget/{botId}/messages',
  'POST /api/widget/{botId}/replies',
];

describe('signed-in routes', () => {
  let t: TestApp;
  let operations: { route: string; secured: boolean; path: string; method: string }[];
  beforeAll(async () => {
    t = await startTestApp();
    const doc = await t.request('GET', '/api/openapi.json');
    operations = Object.entries(doc.body.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          route: `${method.toUpperCase()} ${path}`,
          // Public operations say `security: []`; the others inherit the document's default.
          secured: (operation.security ?? doc.body.security).length > 0,
          path: path.replaceAll(/\{\w+\}/g, '1'),
          method: method.toUpperCase(),
        })),
    );
  });
  afterAll(() => t.close());

  it('marks exactly the signed-in routes with the bearer scheme in the OpenAPI document', () => {
    expect(operations.filter((o) => !o.secured).map((o) => o.route)).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
    expect(operations.filter((o) => !o.secured).map((o) => o.route)).toHaveLength(PUBLIC_ROUTES.length);
    expect(operations.filter((o) => o.secured).length).toBeGreaterThan(10);
  });

  it('answers 401 on every route the document marks as signed-in, before looking at the body', async () => {
    for (const { method, path, route } of operations.filter((o) => o.secured)) {
      const res = await t.request(method, path, {
        token: 'not-a-real-token',
        body: method === 'GET' ? undefined : '{',
      });
      // The OpenAI-compatible API takes API keys, and answers in OpenAI's error shape; /mcp takes them too.
      const openAi = path.startsWith('/v1/');
      expect({ route, status: res.status, code: openAi ? res.body.error?.code : res.body.code }).toEqual({
        route,
        status: 401,
        code: openAi ? 'invalid_api_key' : 'UNAUTHENTICATED',
      });
    }
  });
});
