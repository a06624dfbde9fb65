import { expect } from 'vitest';
import { hashToken } from '../../src/server/lib/tokens';
import type { ReceivedMail } from './smtp-receiver';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/** Things no response may ever carry, whatever the route or outcome. */
const LEAKS: [string, RegExp][] = [
  ['a password hash column', /password_?hash/i],
  ['an argon2 hash', /\$argon2/],
  // JSON.stringify turns the newlines of a stack into the two characters \n.
  ['a stack trace', /"stack"\s*:|(\n|\\n)\s+at \S/],
  ['SQL', /\b(select\s.+\sfrom|insert into|delete from|update\s+\w+\s+set)\b/i],
];

/**
 * The test app, with every response checked for leaks and every error for the `{ message, code, requestId }`
 * shape (decisions §3), so each test enforces both without saying so.
 */
export async function startCheckedApp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await startTestApp(options);
  const request = t.request;
  t.request = async (method, path, init) => {
    const res = await request(method, path, init);
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    for (const [what, pattern] of LEAKS) expect(text, `${method} ${path} leaks ${what}`).not.toMatch(pattern);
    if (res.status >= 400) {
      expect(res.body, `${method} ${path} error body`).toEqual(
        expect.objectContaining({
          message: expect.any(String),
          code: expect.any(String),
          requestId: expect.any(String),
        }),
      );
    }
    return res;
  };
  return t;
}

/** A clock the test moves by hand, so expiry can be reached without waiting. */
export function manualClock(start = Date.now()) {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

const PASSWORD = 'correct-horse-battery';

let counter = 0;
/** Fresh, valid sign-up details; unique across the run so tests sharing a database do not collide. */
export function newAccount(overrides: { username?: string; email?: string; password?: string } = {}) {
  counter += 1;
  const username = overrides.username ?? `u${Date.now().toString(36)}_${counter}`;
  return { username, email: overrides.email ?? `${username}@example.com`, password: overrides.password ?? PASSWORD };
}

export type Account = ReturnType<typeof newAccount> & { id: number };

const userIdOf = async (t: TestApp, username: string) =>
  (await t.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

/** Registers through the API (without signing in, which verification may forbid). */
export async function register(t: TestApp, overrides: Parameters<typeof newAccount>[0] = {}): Promise<Account> {
  const account = newAccount(overrides);
  const res = await t.request('POST', '/api/auth/register', { body: { ...account, fullName: '', role: 'user' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // An answer awaiting verification names no user (decision 0026): the id is read from the database.
  const id = res.body.user?.id ?? (await userIdOf(t, account.username));
  return { ...account, id };
}

export const login = (t: TestApp, username: string, password: string, rememberMe?: boolean) =>
  t.request('POST', '/api/auth/login', {
    body: { username, password, ...(rememberMe === undefined ? {} : { rememberMe }) },
  });

/** Signs in and returns the session token, failing the test if that does not work. */
export async function tokenFor(t: TestApp, account: Pick<Account, 'username' | 'password'>, rememberMe?: boolean) {
  const res = await login(t, account.username, account.password, rememberMe);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

export const currentUser = (t: TestApp, token: string) => t.request('GET', '/api/auth/user', { token });

export const sessionRow = (t: TestApp, token: string) =>
  t.db.kysely.selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();

export const userRow = (t: TestApp, id: number) =>
  t.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type AnyAnswer = { status: number; body: any };

/** An error answer with exactly this status and message. */
export function expectError(res: AnyAnswer, status: number, message: string) {
  expect({ status: res.status, message: res.body?.message }).toEqual({ status, message });
}

/** A 400 whose message, and the entry for `field` in `errors`, is the spec's text. */
export function expectValidation(res: AnyAnswer, field: string, message: string) {
  expectError(res, 400, message);
  expect(res.body.code).toBe('VALIDATION');
  expect(res.body.errors).toContainEqual({ path: field, message });
}

function smtpOf(t: TestApp) {
  if (!t.smtp) throw new Error('start the app with { smtp: true } to receive mail');
  return t.smtp;
}

export const mailsTo = (t: TestApp, to: string, subject: RegExp) =>
  smtpOf(t).mails.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));

/** Waits for a mail beyond the `seen` ones already received (mails go out after the response). */
export async function nextMail(
  t: TestApp,
  to: string,
  subject: RegExp,
  seen: number,
  timeoutMs = 5000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(t, to, subject);
    if (mails.length > seen) return mails.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no new mail to ${to} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const VERIFY_SUBJECT = /Verify your email/;
export const RESET_SUBJECT = /Reset your Botty password/;

/** The token at the end of a mailed link, e.g. http://botty.test/verify-email/{token}. */
export const tokenOf = (link: string) => new URL(link).pathname.split('/').at(-1)!;
