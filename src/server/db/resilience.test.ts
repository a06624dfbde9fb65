import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../tests/support/factories';
import { createTestDb, databaseKinds } from '../../../tests/support/databases';
import { startTcpProxy, type TcpProxy } from '../../../tests/support/tcp-proxy';
import { signUp, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { openDatabase } from './dialect';
import { DATABASE_UNAVAILABLE_MESSAGE } from './unavailable';

const postgresUrl = process.env.TEST_DATABASE_URL;

// The app reaches PostgreSQL through a relay the test controls, so it can drop the app's connections (as a
// restart, failover or pg_terminate_backend would) and make the server unreachable for a while.
describe.runIf(databaseKinds.includes('postgres'))('PostgreSQL connection loss', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let token: string;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    const real = await createTestDb('postgres');
    await real.db.close();
    const server = new URL(postgresUrl!);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const viaProxy = new URL(postgresUrl!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const target = {
      kind: 'postgres' as const,
      url: viaProxy.toString(),
      searchPath: real.target.kind === 'postgres' ? real.target.searchPath : undefined,
    };
    const db = openDatabase(target, { onConnectionError: (err) => connectionErrors.push(err) });
    t = await startTestApp({ testDb: { db, target, drop: real.drop } });
    ({ token } = await signUp(t));
    await createBot(t, token);
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  const listBots = () => t.request('GET', '/api/bots', { token });

  it('survives the server terminating its idle connections, and answers from new ones', async () => {
    expect((await listBots()).status).toBe(200);
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const ports = proxy.upstreamPorts();
    expect(ports.length).toBeGreaterThan(0);
    const { rows } = await admin.query<{ terminated: boolean }>(
      'select pg_terminate_backend(pid) as terminated from pg_stat_activity where client_port = any($1::int[])',
      [ports],
    );
    await admin.end();
    expect(rows.length).toBeGreaterThan(0);
    // The idle clients learn of it asynchronously; unheard, that 'error' event would have ended the process.
    // Every pooled connection has to hear it (housekeeping tasks at start-up may have opened more than one).
    await expect.poll(() => connectionErrors.length).toBeGreaterThanOrEqual(rows.length);
    const after = await listBots();
    expect(after.status).toBe(200);
    expect(after.body).toHaveLength(1);
  });

  it('answers 503 quickly while the database is unreachable, and recovers by itself', async () => {
    proxy.cut();
    const started = Date.now();
    const during = await listBots();
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await t.request('GET', '/api/health')).status).toBe(503);

    proxy.restore();
    await expect.poll(async () => (await t.request('GET', '/api/health')).status, { timeout: 10_000 }).toBe(200);
    const after = await listBots();
    expect(after.status).toBe(200);
    expect(after.body).toHaveLength(1);
  });
});

describe.each(databaseKinds)('text the database cannot store, on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ kind });
    ({ token } = await signUp(t));
  });
  afterAll(() => t.close());

  const createBotNamed = (name: string) =>
    t.request('POST', '/api/bots', {
      token,
      body: {
        name,
        description: 'Plans meals',
        purpose: 'planning',
        icon: 'utensils',
        active: true,
        capabilities: [],
        config: {},
      },
    });

  it.each([
    ['a NUL character', 'Meal\u0000Planner'],
    ['a lone high surrogate', 'Meal \ud83d Planner'],
    ['a lone low surrogate', 'Meal \ude00 Planner'],
  ])('refuses %s in user input with a 400 naming the field', async (_what, name) => {
    const res = await createBotNamed(name);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(res.body.errors).toEqual([{ path: 'name', message: expect.stringContaining('NUL') }]);
    expect((await t.request('GET', '/api/bots', { token })).body).toEqual([]);
  });

  it('accepts well-formed text beyond the basic plane', async () => {
    const res = await createBotNamed('Meal 🍲 Planner');
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Meal 🍲 Planner');
  });
});
