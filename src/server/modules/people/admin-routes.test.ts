import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { superadminAdminAndUser, type Person } from '../../../../tests/support/admin-api';
import { startCheckedApp } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import type { TestApp } from '../../../../tests/support/test-app';

/**
 * Every /api/admin route of the OpenAPI document, so a route added later is covered without a line of its own:
 * 401 for anonymous callers, 403 for ordinary users, before the body is looked at.
 */
describe.each(databaseKinds)('every /api/admin route, on %s', (kind) => {
  let t: TestApp;
  let people: { superadmin: Person; admin: Person; user: Person };
  let operations: { method: string; path: string; route: string }[];
  beforeAll(async () => {
    t = await startCheckedApp({ kind });
    people = await superadminAdminAndUser(t);
    const document = await t.request<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    operations = Object.entries(document.body.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase(),
          path: path.replaceAll(/\{\w+\}/g, String(people.user.id)),
          route: `${method.toUpperCase()} ${path}`,
        })),
      );
  });
  afterAll(() => t.close());

  it('finds the console’s routes in the document', () => {
    const routes = operations.map((o) => o.route);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/admin/users',
        'PATCH /api/admin/users/{id}',
        'DELETE /api/admin/users/{id}',
        'POST /api/admin/users/{id}/resend-verification',
        'GET /api/admin/invitations',
        'POST /api/admin/invitations',
        'DELETE /api/admin/invitations/{id}',
        'GET /api/admin/settings',
        'PATCH /api/admin/settings',
      ]),
    );
  });

  const call = (method: string, path: string, token?: string) =>
    t.request(method, path, { token, body: method === 'GET' || method === 'DELETE' ? undefined : '{' });

  it('answers 401 to anonymous callers on every one', async () => {
    for (const { method, path, route } of operations) {
      const res = await call(method, path);
      expect({ route, status: res.status, message: res.body.message }).toEqual({
        route,
        status: 401,
        message: 'Authentication required',
      });
    }
  });

  it('answers 403 to an ordinary user on every one, and changes nothing', async () => {
    for (const { method, path, route } of operations) {
      const res = await call(method, path, people.user.token);
      expect({ route, status: res.status, message: res.body.message }).toEqual({
        route,
        status: 403,
        message: ADMIN_MESSAGES.adminOnly,
      });
    }
    // The user, whose id the paths carried, is still there and still signed in.
    expect((await t.request('GET', '/api/auth/user', { token: people.user.token })).status).toBe(200);
  });

  it('lets an admin (not only the superadmin) through to every listing', async () => {
    for (const { method, path, route } of operations.filter((o) => o.method === 'GET')) {
      const res = await t.request(method, path, { token: people.admin.token });
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
    }
  });
});
