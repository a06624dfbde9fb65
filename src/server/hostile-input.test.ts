import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../tests/support/databases';
import { signUp, startTestApp, type TestApp } from '../../tests/support/test-app';

/**
 * Every route of the OpenAPI document, signed in and not, with hostile path ids and bodies: whatever is wrong
 * is answered with a 4xx and a message, never a 500, on both databases. A route added later is covered by
 * this test without a line of its own.
 */
const HOSTILE_IDS = [
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1e3',
  '1.5',
  '%00',
  "1'--",
  '%F0%9F%A4%96',
];
const HUGE = 'x'.repeat(200_000);
const HOSTILE_BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  {},
  { id: "1' or 1=1 --", name: '\u0000', content: '\uD800', botId: -1, conversationId: 'abc' },
  // An own `__proto__` key, as a hostile client sends it (an object literal would set the prototype instead).
  JSON.parse('{"__proto__": {"role": "superadmin"}, "constructor": {"prototype": {"role": "superadmin"}}}'),
  { name: HUGE, content: HUGE, title: HUGE, description: HUGE, email: `${HUGE}@x.org`, password: HUGE },
  { botId: 1e308, conversationId: Number.MAX_SAFE_INTEGER + 2, fileIds: Array.from({ length: 10_000 }, (_, i) => i) },
  { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] }] },
];

type Operation = { method: string; path: string };

/** Paths with every {param} replaced, and the methods the document lists for them. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({ method: method.toUpperCase(), path })),
  );
}

const withIds = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);

describe.each(databaseKinds)('hostile input to every route, on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let operations: Operation[];
  beforeAll(async () => {
    t = await startTestApp({ kind });
    token = (await signUp(t)).token;
    const document = await t.request<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    // Signing out or deleting the account would only end the session the rest of the test uses.
    operations = operationsOf(document.body).filter(({ path }) => !/\/auth\/logout|\/account$/.test(path));
    // The document lists the whole API (auth, bots, chat, files, sharing, keys, /v1, the widget…).
    expect(operations.length).toBeGreaterThan(60);
  });
  afterAll(() => t.close());

  const send = async (method: string, path: string, body: unknown, auth?: string) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text };
  };

  it('answers hostile ids in paths with a 4xx, never a 500', async () => {
    const failures: string[] = [];
    for (const { method, path } of operations.filter((o) => o.path.includes('{'))) {
      for (const id of HOSTILE_IDS) {
        const url = withIds(path, id);
        const { status, text } = await send(
          method,
          url,
          method === 'GET' || method === 'DELETE' ? undefined : {},
          token,
        );
        if (status >= 500) failures.push(`${method} ${url} → ${status} ${text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile bodies with a 4xx and a message, signed in or not, never a 500', async () => {
    const failures: string[] = [];
    for (const { method, path } of operations.filter((o) => o.method !== 'GET')) {
      for (const body of HOSTILE_BODIES) {
        for (const auth of [token, undefined]) {
          const { status, text } = await send(method, withIds(path, '1'), body, auth);
          if (status >= 500 || (status >= 400 && !text.includes('message')))
            failures.push(`${method} ${path} (${auth ? 'signed in' : 'anonymous'}) → ${status} ${text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The server is still well.
    expect((await send('GET', '/api/health', undefined)).status).toBe(200);
  });
});
