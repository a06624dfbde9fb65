import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { signInLockedMail } from '../../mail/templates';
import { findUserByLogin } from '../users/users.service';
import { sendInBackground, type AuthDeps } from './auth.service';

/*
 * Device cookies (OWASP "Slow brute force / device cookies", decision 0026): a browser that signed in to an
 * account once gets a cookie naming that account and a nonce, signed with an HMAC. While the per-account limit
 * locks an account against guessing from everywhere else, such a browser is counted on its own budget instead,
 * so an attacker can lock out strangers' browsers but not the owner's.
 */

const COOKIE_PREFIX = 'botty_device_';
const MAX_AGE_S = 180 * 24 * 60 * 60;

export interface DeviceCookie {
  userId: number;
  /** The HMAC key: server-held and secret, shared by every instance, and replaced by a password change. */
  passwordHash: string;
}

const mac = (device: DeviceCookie, nonce: string) =>
  createHmac('sha256', device.passwordHash).update(`${device.userId}.${nonce}`).digest('base64url');

/** Sets a new device cookie for the account just signed in to; only the sign-in route ever receives it. */
export function setDeviceCookie(reply: FastifyReply, device: DeviceCookie, secure: boolean) {
  const nonce = randomBytes(16).toString('base64url');
  const value = `${device.userId}.${nonce}.${mac(device, nonce)}`;
  const attributes = `Path=/api/auth/login; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  reply.header('set-cookie', `${COOKIE_PREFIX}${device.userId}=${value}; ${attributes}`);
}

function cookieNamed(header: string, name: string) {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The nonce of a valid device cookie for the account `login` names (username or e-mail), if the browser sent one. */
export async function trustedDeviceNonce(deps: Pick<AuthDeps, 'db'>, login: string, cookieHeader: string | undefined) {
  if (!cookieHeader || !login) return undefined;
  const row = await findUserByLogin(deps.db.kysely, login);
  if (!row) return undefined;
  const [userId, nonce, given] = cookieNamed(cookieHeader, `${COOKIE_PREFIX}${row.id}`)?.split('.') ?? [];
  if (userId !== String(row.id) || !nonce || !given) return undefined;
  const expected = Buffer.from(mac({ userId: row.id, passwordHash: row.password_hash }, nonce));
  const received = Buffer.from(given);
  return expected.length === received.length && timingSafeEqual(expected, received) ? nonce : undefined;
}

/** Tells the owner of the account `login` names that sign-in to it is paused; the caller sends this once per lock. */
export async function mailSignInLocked(deps: AuthDeps, login: string) {
  const row = await findUserByLogin(deps.db.kysely, login);
  if (row) sendInBackground(deps, signInLockedMail(row.email, row.username, `${deps.config.appUrl}/forgot-password`));
}
