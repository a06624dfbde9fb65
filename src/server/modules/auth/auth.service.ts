import type { FastifyBaseLogger } from 'fastify';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import type {
  ChangePasswordBody,
  LoginBody,
  ProfileBody,
  RegisterBody,
  ResetPasswordBody,
  User,
} from '@shared/contracts/auth';
import type { Config } from '../../config';
import type { Db, DbScope, EmailTokenPurpose, Executor } from '../../db/database';
import { inTransaction } from '../../db/write-atomically';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import type { Mail, Mailer } from '../../mail/mailer';
import { existingAccountMail, passwordResetMail, verificationMail } from '../../mail/templates';
import { admitNewcomer, registrationMode, type Admitted } from '../people/registration.service';
import type { UserRow } from '../users/users.repository';
import {
  countUsers,
  findUserByEmail,
  findUserByLogin,
  findUserWithPassword,
  insertUser,
  toUser,
  updateUser,
  usernameTaken,
} from '../users/users.service';
import {
  consumeEmailToken,
  deleteExpiredEmailTokens,
  findEmailToken,
  insertEmailToken,
  invalidateEmailTokens,
} from './email-tokens.repository';
import {
  deleteExpiredSessions,
  deleteSessionByHash,
  deleteUserSessions,
  findLiveSessionUser,
  insertSession,
} from './sessions.repository';
import type { SessionCache } from './session-cache';
import type { SetupCode } from './setup-code';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
export const SESSION_TTL_MS = { remembered: 30 * DAY, browserSession: DAY } as const;
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = { verify_email: DAY, reset_password: HOUR };

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid username or password',
  needsVerification: 'Please verify your email address before logging in',
  usernameTaken: 'Username already taken',
  emailTaken: 'An account with this email already exists',
  registeredVerify: 'Registration successful. Please check your email to verify your account.',
  registered: 'Registration successful. You can now sign in.',
  verified: 'Your email address has been verified. You can now log in.',
  verifyInvalid: 'Verification failed. The link may have expired or is invalid.',
  resendSent: "If an account with that email is waiting for verification, we've sent a new verification link.",
  forgotSent: "If an account exists with that email, we've sent a password reset link.",
  resetInvalid: 'The password reset link is invalid or has expired.',
  resetDone: 'Your password has been reset. You can now log in.',
  currentPasswordWrong: 'Current password is incorrect',
  passwordChanged: 'Your password has been changed successfully.',
  loggedOut: 'Logged out',
  adminOnly: 'Only a superadmin can create administrators',
} as const;

export interface AuthDeps {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'appUrl' | 'emailVerificationRequired' | 'admin'>;
  clock: Clock;
  log: FastifyBaseLogger;
  sessions: SessionCache<Session>;
}

export interface Session {
  user: User;
  sessionId: number;
}

/** Mails that follow a public request go out after the answer, so response time says nothing about accounts. */
export function sendInBackground(deps: Pick<AuthDeps, 'mailer' | 'log'>, mail: Mail) {
  deps.mailer
    .send(mail)
    .catch((err: unknown) => deps.log.error({ err, to: mail.to, subject: mail.subject }, 'mail failed'));
}

async function issueEmailToken(deps: AuthDeps, db: Executor, userId: number, purpose: EmailTokenPurpose) {
  const { token, hash } = newToken();
  await invalidateEmailTokens(db, userId, purpose, isoNow(deps.clock));
  await insertEmailToken(db, {
    userId,
    purpose,
    tokenHash: hash,
    now: isoNow(deps.clock),
    expiresAt: isoIn(deps.clock, EMAIL_TOKEN_TTL_MS[purpose]),
  });
  return token;
}

const verificationLink = (deps: AuthDeps, token: string) => `${deps.config.appUrl}/verify-email/${token}`;
const resetLink = (deps: AuthDeps, token: string) => `${deps.config.appUrl}/reset-password/${token}`;

/** A sign-up's address belongs to an account already; register may hide that (decision 0026). */
class EmailTaken extends AppError {
  constructor() {
    super('CONFLICT', AUTH_MESSAGES.emailTaken);
  }
}

async function assertAvailable(db: Executor, username: string, email: string) {
  if (await usernameTaken(db, username)) throw new AppError('CONFLICT', AUTH_MESSAGES.usernameTaken);
  if (await findUserByEmail(db, email)) throw new EmailTaken();
}

/**
 * A unique index can still fire when two sign-ups race past the checks above; the index named in the error
 * (`constraint` on PostgreSQL, the message on SQLite) says which value clashed.
 */
function uniqueViolation(err: unknown): 'email' | 'username' | undefined {
  const e = err as { code?: string; message?: string; constraint?: string };
  if (e.code !== '23505' && e.code !== 'SQLITE_CONSTRAINT_UNIQUE' && !/UNIQUE constraint/.test(e.message ?? ''))
    return undefined;
  return /email/.test(`${e.constraint ?? ''} ${e.message ?? ''}`) ? 'email' : 'username';
}

const conflictError = (clash: 'email' | 'username') =>
  clash === 'email' ? new EmailTaken() : new AppError('CONFLICT', AUTH_MESSAGES.usernameTaken);

/** The role a new account gets, and what its creation uses up (an invitation), decided before anything else. */
interface Admission {
  role: 'user' | 'superadmin';
  admitted?: Admitted;
}

async function createUser(
  deps: AuthDeps,
  input: { username: string; email: string; password: string; fullName: string | null },
  admit: (scope: DbScope) => Promise<Admission>,
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(deps.db, async (scope) => {
      const tx = scope.kysely;
      // Before the availability checks: a refused sign-up must not tell whether its address has an account.
      const admission = await admit(scope);
      await assertAvailable(tx, input.username, input.email);
      const row = await insertUser(tx, {
        username: input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        role: admission.role,
        fullName: input.fullName,
        emailVerified: admission.role === 'superadmin' || !deps.config.emailVerificationRequired,
        now: isoNow(deps.clock),
      });
      await admission.admitted?.(tx, row.id);
      return row;
    });
  } catch (err) {
    const clash = uniqueViolation(err);
    if (clash) throw conflictError(clash);
    throw err;
  }
}

/**
 * With verification on, a sign-up with a taken address answers as a new one awaiting verification (the password
 * was hashed either way, so timing matches too) and the owner is told by mail; usernames are public anyway.
 */
async function answerTakenEmail(deps: AuthDeps, email: string) {
  const owner = await findUserByEmail(deps.db.kysely, email);
  if (owner) {
    const urls = { signIn: `${deps.config.appUrl}/login`, reset: `${deps.config.appUrl}/forgot-password` };
    sendInBackground(deps, existingAccountMail(owner.email, owner.username, urls));
  }
  return { message: AUTH_MESSAGES.registeredVerify, needsVerification: true };
}

/** Sends a fresh verification link, voiding the earlier ones. */
export async function sendVerification(deps: AuthDeps, row: Pick<UserRow, 'id' | 'email' | 'username'>) {
  const token = await issueEmailToken(deps, deps.db.kysely, row.id, 'verify_email');
  sendInBackground(deps, verificationMail(row.email, row.username, verificationLink(deps, token)));
}

/** GET /api/auth/registration: what the sign-up page offers; an empty instance's first account always registers. */
export const registrationInfo = async (deps: Pick<AuthDeps, 'db'>) => ({
  mode: (await countUsers(deps.db.kysely)) === 0 ? ('open' as const) : await registrationMode(deps),
});

export async function register(deps: AuthDeps, body: RegisterBody, setupCode: SetupCode) {
  // Read before the transaction: on SQLite its one connection is the transaction's until it ends.
  const mode = await registrationMode(deps);
  let row: UserRow;
  try {
    // The first account of an empty instance administers it (decisions §1), with the setup code on a public server
    // (decision 0030), whatever the registration mode; `body.role` is ignored.
    row = await createUser(
      deps,
      { username: body.username, email: body.email, password: body.password, fullName: body.fullName || null },
      async (scope) =>
        (await setupCode.check(scope, body.setupCode))
          ? { role: 'superadmin' }
          : { role: 'user', admitted: await admitNewcomer(scope.kysely, deps.clock, mode, body) },
    );
  } catch (err) {
    if (err instanceof EmailTaken && deps.config.emailVerificationRequired) return answerTakenEmail(deps, body.email);
    throw err;
  }
  if (row.email_verified) return { message: AUTH_MESSAGES.registered, user: toUser(row), needsVerification: false };
  // No user in this answer: it must not differ from the one for a taken address.
  await sendVerification(deps, row);
  return { message: AUTH_MESSAGES.registeredVerify, needsVerification: true };
}

export async function login(deps: AuthDeps, body: LoginBody) {
  const row = await findUserByLogin(deps.db.kysely, body.username);
  const passwordOk = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), body.password);
  if (!row || !passwordOk) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials);
  // Only past the password: a guesser learns nothing about the account.
  if (row.disabled_at !== null) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.accountDisabled);
  if (deps.config.emailVerificationRequired && !row.email_verified) {
    throw new AppError('EMAIL_NOT_VERIFIED', AUTH_MESSAGES.needsVerification, {
      needsVerification: true,
      email: row.email,
    });
  }
  const remember = body.rememberMe === true;
  const { token, hash } = newToken();
  await insertSession(deps.db.kysely, {
    userId: row.id,
    tokenHash: hash,
    remember,
    now: isoNow(deps.clock),
    expiresAt: isoIn(deps.clock, remember ? SESSION_TTL_MS.remembered : SESSION_TTL_MS.browserSession),
  });
  return { token, user: toUser(row), device: { userId: row.id, passwordHash: row.password_hash } };
}

export function authenticate(
  deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions'>,
  token: string,
): Promise<Session | null> {
  const tokenHash = hashToken(token);
  return deps.sessions.get(tokenHash, async () => {
    const row = await findLiveSessionUser(deps.db.kysely, tokenHash, isoNow(deps.clock));
    return (
      row && {
        value: { user: toUser(row), sessionId: row.session_id },
        userId: row.id,
        expiresAt: row.session_expires_at,
      }
    );
  });
}

export async function logout(deps: AuthDeps, session: Session, token: string) {
  await deleteSessionByHash(deps.db.kysely, hashToken(token));
  await deps.sessions.forgetUser(session.user.id);
  return { message: AUTH_MESSAGES.loggedOut };
}

/** Finds a live token and marks it used in one step; any failure is the same error, whatever the cause. */
async function redeemEmailToken(
  deps: AuthDeps,
  db: Executor,
  purpose: EmailTokenPurpose,
  token: string,
  invalid: string,
) {
  const row = await findEmailToken(db, purpose, hashToken(token));
  if (!row || row.used_at !== null || row.expires_at <= isoNow(deps.clock)) throw new AppError('BAD_REQUEST', invalid);
  if (!(await consumeEmailToken(db, row.id, isoNow(deps.clock)))) throw new AppError('BAD_REQUEST', invalid);
  return row.user_id;
}

export async function verifyEmail(deps: AuthDeps, token: string) {
  const userId = await deps.db.kysely.transaction().execute(async (tx) => {
    const userId = await redeemEmailToken(deps, tx, 'verify_email', token, AUTH_MESSAGES.verifyInvalid);
    await updateUser(tx, userId, { emailVerified: true }, isoNow(deps.clock));
    return userId;
  });
  await deps.sessions.forgetUser(userId);
  return { message: AUTH_MESSAGES.verified };
}

export async function resendVerification(deps: AuthDeps, email: string) {
  const row = await findUserByEmail(deps.db.kysely, email);
  if (row && !row.email_verified) await sendVerification(deps, row);
  return { message: AUTH_MESSAGES.resendSent };
}

export async function forgotPassword(deps: AuthDeps, email: string) {
  const row = await findUserByEmail(deps.db.kysely, email);
  if (row) {
    const token = await issueEmailToken(deps, deps.db.kysely, row.id, 'reset_password');
    sendInBackground(deps, passwordResetMail(row.email, row.username, resetLink(deps, token)));
  }
  return { message: AUTH_MESSAGES.forgotSent };
}

export async function resetPassword(deps: AuthDeps, body: ResetPasswordBody) {
  const passwordHash = await hashPassword(body.newPassword);
  const userId = await deps.db.kysely.transaction().execute(async (tx) => {
    const userId = await redeemEmailToken(deps, tx, 'reset_password', body.token, AUTH_MESSAGES.resetInvalid);
    // Following the mailed link proves the address, so it also counts as verification.
    await updateUser(tx, userId, { passwordHash, emailVerified: true }, isoNow(deps.clock));
    await invalidateEmailTokens(tx, userId, 'reset_password', isoNow(deps.clock));
    await deleteUserSessions(tx, userId);
    return userId;
  });
  await deps.sessions.forgetUser(userId);
  return { message: AUTH_MESSAGES.resetDone };
}

export async function changePassword(deps: AuthDeps, session: Session, body: ChangePasswordBody) {
  const row = await findUserWithPassword(deps.db.kysely, session.user.id, body.currentPassword);
  if (!row) throw new AppError('BAD_REQUEST', AUTH_MESSAGES.currentPasswordWrong);
  const passwordHash = await hashPassword(body.newPassword);
  await deps.db.kysely.transaction().execute(async (tx) => {
    await updateUser(tx, row.id, { passwordHash }, isoNow(deps.clock));
    await deleteUserSessions(tx, row.id, session.sessionId);
  });
  await deps.sessions.forgetUser(row.id);
  return { message: AUTH_MESSAGES.passwordChanged };
}

export async function updateProfile(deps: AuthDeps, session: Session, body: ProfileBody) {
  const db = deps.db.kysely;
  if (body.username !== undefined && (await usernameTaken(db, body.username, session.user.id))) {
    throw new AppError('CONFLICT', AUTH_MESSAGES.usernameTaken);
  }
  try {
    const row = await updateUser(
      db,
      session.user.id,
      {
        username: body.username,
        fullName: body.fullName === undefined ? undefined : body.fullName || null,
        profileImageUrl: body.profileImageUrl === undefined ? undefined : body.profileImageUrl || null,
      },
      isoNow(deps.clock),
    );
    await deps.sessions.forgetUser(row.id);
    return toUser(row);
  } catch (err) {
    const clash = uniqueViolation(err);
    if (clash) throw conflictError(clash);
    throw err;
  }
}

export async function createAdmin(
  deps: AuthDeps,
  caller: Session,
  body: { username: string; email: string; password: string },
) {
  if (caller.user.role !== 'superadmin') throw new AppError('FORBIDDEN', AUTH_MESSAGES.adminOnly);
  const row = await createUser(deps, { ...body, fullName: null }, async () => ({ role: 'superadmin' }));
  return toUser(row);
}

/** Ends every session of a user, in the caller's transaction; tell `sessions.forgetUser` once it commits. */
export const endUserSessions = (db: Executor, userId: number) => deleteUserSessions(db, userId);

/** Drops the sessions and e-mail links past their expiry; lookups already ignore them, this keeps the tables small. */
export async function purgeExpired(deps: Pick<AuthDeps, 'db' | 'clock'>) {
  const now = isoNow(deps.clock);
  return {
    sessions: await deleteExpiredSessions(deps.db.kysely, now),
    emailTokens: await deleteExpiredEmailTokens(deps.db.kysely, now),
  };
}
