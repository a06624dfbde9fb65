import { afterEach, describe, expect, it } from 'vitest';
import { expectError, newAccount, register, startCheckedApp, userRow } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { logSink } from '../../../../tests/support/log-sink';
import type { TestApp } from '../../../../tests/support/test-app';
import { isLocalUrl, SETUP_CODE_MESSAGES } from './setup-code';

const PUBLIC = { APP_URL: 'https://botty.example.com', LOG_LEVEL: 'info' };

const signUpWith = (t: TestApp, setupCode?: string) =>
  t.request('POST', '/api/auth/register', {
    body: { ...newAccount(), ...(setupCode === undefined ? {} : { setupCode }) },
  });
const setupRequired = async (t: TestApp) =>
  (await t.request('GET', '/api/auth/setup')).body as { setupCodeRequired: boolean };

describe.each(databaseKinds)('the setup code of a fresh public server, on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('prints the code once at start and asks for it on the first sign-up only', async () => {
    const log = logSink();
    t = await startCheckedApp({ kind, env: PUBLIC, logStream: log.stream });
    const printed = log.entries().filter((e) => typeof e.setupCode === 'string');
    expect(printed).toHaveLength(1);
    expect(printed[0]!.level).toBe(40);
    const code = printed[0]!.setupCode as string;
    expect(code).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    expect(printed[0]!.msg).toContain(code);
    expect(printed[0]!.msg).toContain('https://botty.example.com/register');
    expect(await setupRequired(t)).toEqual({ setupCodeRequired: true });

    expectError(await signUpWith(t), 403, SETUP_CODE_MESSAGES.missing);
    expectError(await signUpWith(t, ''), 403, SETUP_CODE_MESSAGES.missing);
    expectError(await signUpWith(t, 'AAAA-BBBB-CCCC-DDDD'), 403, SETUP_CODE_MESSAGES.wrong);
    expect(await t.db.kysely.selectFrom('users').select('id').execute()).toEqual([]);

    // Typed by hand: case and surrounding spaces do not matter.
    const first = await signUpWith(t, ` ${code.toLowerCase()} `);
    expect(first.status).toBe(201);
    expect((await userRow(t, first.body.user.id)).role).toBe('superadmin');

    expect(await setupRequired(t)).toEqual({ setupCodeRequired: false });
    const later = await register(t);
    expect((await userRow(t, later.id)).role).toBe('user');
    // A code on a later sign-up, right or wrong, is ignored.
    expect((await signUpWith(t, 'anything')).status).toBe(201);
    expect(log.entries().filter((e) => e.setupCode !== undefined)).toHaveLength(1);
  });

  it('prints no code when the server already has an account, and a new code at each start until then', async () => {
    const log = logSink();
    t = await startCheckedApp({ kind, env: PUBLIC, logStream: log.stream });
    const firstCode = log.entries().find((e) => e.setupCode)!.setupCode;
    await t.close({ keepDb: true });

    const again = logSink();
    t = await startCheckedApp({ kind, env: PUBLIC, logStream: again.stream, testDb: t.testDb });
    const secondCode = again.entries().find((e) => e.setupCode)!.setupCode as string;
    expect(secondCode).not.toBe(firstCode);
    expectError(await signUpWith(t, firstCode as string), 403, SETUP_CODE_MESSAGES.wrong);
    expect((await signUpWith(t, secondCode)).status).toBe(201);
    await t.close({ keepDb: true });

    const third = logSink();
    t = await startCheckedApp({ kind, env: PUBLIC, logStream: third.stream, testDb: t.testDb });
    expect(third.entries().filter((e) => e.setupCode !== undefined)).toEqual([]);
    expect((await signUpWith(t)).status).toBe(201);
  });
});

describe('servers that need no setup code', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it.each([
    ['the default APP_URL (localhost)', { LOG_LEVEL: 'info', APP_URL: '' }],
    ['a loopback APP_URL', { LOG_LEVEL: 'info', APP_URL: 'http://127.0.0.2:8080' }],
    [
      'ADMIN_* on a public APP_URL',
      { ...PUBLIC, ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'correct-horse-battery' },
    ],
  ])('%s: the first sign-up needs no code and nothing is printed', async (_what, env) => {
    const log = logSink();
    t = await startCheckedApp({ env, logStream: log.stream });
    expect(log.entries().filter((e) => e.setupCode !== undefined)).toEqual([]);
    expect(await setupRequired(t)).toEqual({ setupCodeRequired: false });
    const first = await signUpWith(t);
    expect(first.status).toBe(201);
    // buildApp leaves ADMIN_* to main.ts, so the first sign-up here still takes the superadmin seat.
    expect((await userRow(t, first.body.user.id)).role).toBe('superadmin');
  });

  it('tells local addresses from public ones', () => {
    const local = ['http://localhost:5000', 'http://botty.localhost', 'http://127.0.0.1', 'http://[::1]:5000'];
    const test = ['http://botty.test'];
    const exposed = ['https://botty.example.com', 'http://10.0.0.5', 'http://localhost.example.com', 'http://[::2]'];
    for (const url of [...local, ...test]) expect(isLocalUrl(url), url).toBe(true);
    for (const url of exposed) expect(isLocalUrl(url), url).toBe(false);
  });
});
