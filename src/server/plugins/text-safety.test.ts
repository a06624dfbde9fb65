import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER } from '@shared/chat/widget-protocol';
import { databaseKinds } from '../../../tests/support/databases';
import { createBot } from '../../../tests/support/factories';
import { signUp, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { jsonDepth } from '../lib/json-depth';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE, UNSAFE_TEXT_MESSAGE } from './text-safety';

const LEVELS = 20_000;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonDepth', () => {
  it('counts nesting outside strings only', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[{{{\\"[[["}')).toBe(1);
    expect(jsonDepth(deepArray(LEVELS))).toBe(LEVELS);
  });
});

describe.each(databaseKinds)('hostile JSON, on %s', (kind) => {
  let t: TestApp;
  let apiKey: string;
  let botId: number;
  beforeAll(async () => {
    t = await startTestApp({ kind });
    const { token } = await signUp(t);
    botId = (await createBot(t, token)).id;
    apiKey = (await t.request('POST', '/api/keys', { token, body: { name: 'deep', botId: null } })).body.key;
    const shared = await t.request('PATCH', `/api/bots/${botId}/sharing`, {
      token,
      body: { visibility: 'link', embedOrigins: ['http://127.0.0.1:4321'] },
    });
    expect(shared.status).toBe(200);
  });
  afterAll(() => t.close());

  const routes = (): { path: string; headers: Record<string, string> }[] => [
    { path: '/api/auth/login', headers: {} },
    { path: '/api/auth/register', headers: {} },
    { path: '/v1/chat/completions', headers: { authorization: `Bearer ${apiKey}` } },
    {
      path: `/api/widget/${botId}/replies`,
      headers: { [EMBED_ORIGIN_HEADER]: 'http://127.0.0.1:4321', [VISITOR_KEY_HEADER]: `visitor-${'0'.repeat(24)}` },
    },
  ];

  it(`refuses ${LEVELS.toLocaleString('en')} levels with a 400 naming the limit, quickly, on every route`, async () => {
    for (const { path, headers } of routes()) {
      for (const body of [deepObject(LEVELS), deepArray(LEVELS)]) {
        const started = performance.now();
        const res = await t.request('POST', path, { body, headers });
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        expect(JSON.stringify(res.body)).toContain(TOO_DEEP_MESSAGE);
        expect(performance.now() - started).toBeLessThan(500);
      }
    }
    // The server is still answering normally.
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });

  it(`takes ${MAX_JSON_DEPTH} levels, and still finds unstorable text at the bottom`, async () => {
    const inner = `${'['.repeat(MAX_JSON_DEPTH - 2)}"bad\\u0000"${']'.repeat(MAX_JSON_DEPTH - 2)}`;
    const res = await t.request('POST', '/api/auth/login', {
      body: `{"username":"someone","password":"pw","x":{"y":${inner}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: UNSAFE_TEXT_MESSAGE });
    expect(res.body.errors[0].path).toBe(['x', 'y', ...Array<string>(MAX_JSON_DEPTH - 2).fill('0')].join('.'));
  });
});
