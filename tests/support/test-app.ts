import type { AddressInfo } from 'node:net';
import { apiClient, type ApiClient } from './api-client';
import { buildApp, type AppOptions } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { DatabaseKind } from '../../src/server/db/database';
import type { Clock } from '../../src/server/lib/clock';
import { createTestDb, type TestDb } from './databases';
import { startFakeLlm, type FakeLlmOptions } from './fake-llm';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

export interface TestAppOptions {
  kind?: DatabaseKind;
  /** Environment variables on top of the defaults, exactly as an operator would set them. */
  env?: Record<string, string>;
  /** Start a real SMTP receiver and point SMTP_URL at it (which turns e-mail verification on). */
  smtp?: boolean;
  clock?: Clock;
  authRateLimit?: AppOptions['authRateLimit'];
  chatRateLimit?: AppOptions['chatRateLimit'];
  chatTimeouts?: AppOptions['chatTimeouts'];
  extraContextProviders?: AppOptions['extraContextProviders'];
  fileJobs?: AppOptions['fileJobs'];
  logStream?: AppOptions['logStream'];
  warmKnowledge?: AppOptions['warmKnowledge'];
  pgvectorFromPassages?: AppOptions['pgvectorFromPassages'];
  sweepIntervalMs?: AppOptions['sweepIntervalMs'];
  /** The built client it serves (default dist/client), e.g. a build of its own for a bench. */
  clientRoot?: AppOptions['clientRoot'];
  /** Reuse a database, e.g. to restart the server on the same data. */
  testDb?: TestDb;
}

/** The real server on a loopback port, with its own database and, when asked, a real SMTP receiver. */
export async function startTestApp(options: TestAppOptions = {}) {
  const testDb = options.testDb ?? (await createTestDb(options.kind ?? 'sqlite'));
  const smtp: SmtpReceiver | undefined = options.smtp ? await startSmtpReceiver() : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    APP_URL: 'http://botty.test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // The suite keeps every core busy (test files run side by side): in the idle scheduling class, the default, a
    // file waits as long as the cores do, over 30 s beside two busy processes (decision 0078).
    FILES_EXTRACTION_PRIORITY: 'low',
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: testDb.db,
    clock: options.clock,
    // Tests hammer the auth and chat routes; the rate-limit tests set their own.
    // Passing `authRateLimit: undefined` on purpose leaves the limits to the environment, as in production.
    authRateLimit: 'authRateLimit' in options ? options.authRateLimit : { max: 10_000, timeWindow: 60_000 },
    chatRateLimit: options.chatRateLimit ?? { max: 10_000, timeWindow: 60_000 },
    chatTimeouts: options.chatTimeouts,
    extraContextProviders: options.extraContextProviders,
    fileJobs: options.fileJobs,
    logStream: options.logStream,
    warmKnowledge: options.warmKnowledge,
    pgvectorFromPassages: options.pgvectorFromPassages,
    sweepIntervalMs: options.sweepIntervalMs,
    clientRoot: options.clientRoot,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const { request, send } = apiClient(url);

  return {
    app,
    url,
    config,
    testDb,
    db: testDb.db,
    smtp,
    request,
    send,
    /** Stops the server; the database is dropped unless `keepDb` (to start again on it). */
    async close({ keepDb = false } = {}) {
      await app.close();
      await smtp?.close();
      if (!keepDb) await testDb.drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

let counter = 0;
/** Registers and signs in a fresh user through the API; returns the token and user. */
export async function signUp(t: ApiClient, overrides: { username?: string; email?: string; password?: string } = {}) {
  counter += 1;
  const suffix = `${Date.now().toString(36)}${counter}`;
  const username = overrides.username ?? `user_${suffix}`;
  const email = overrides.email ?? `${username}@example.com`;
  const password = overrides.password ?? 'correct-horse-battery';
  const reg = await t.request('POST', '/api/auth/register', {
    body: { username, email, password, fullName: '', role: 'user' },
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await t.request('POST', '/api/auth/login', { body: { username, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.token as string, user: login.body.user, username, email, password };
}

export type SignedUp = Awaited<ReturnType<typeof signUp>>;

/** An app and the two ordinary users most API tests start with: alice makes things, bob must not reach them. */
export async function withAliceAndBob<A extends ApiClient>(app: Promise<A>) {
  const t = await app;
  return { t, alice: await signUp(t), bob: await signUp(t) };
}

/** The test app answered by a fake model of its own (an OpenAI-compatible server on loopback); `close` stops both. */
export async function startTestAppWithModel(options: TestAppOptions & { model?: FakeLlmOptions } = {}) {
  const fake = await startFakeLlm(options.model);
  const t = await startTestApp({
    ...options,
    env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model, ...options.env },
  });
  return {
    ...t,
    fake,
    async close(closeOptions?: Parameters<TestApp['close']>[0]) {
      await t.close(closeOptions);
      await fake.close();
    },
  };
}
