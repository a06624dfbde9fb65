import { isoNow, type Clock } from './clock';
import { AppError } from './errors';

/** An expiry the caller chose must still be ahead; the 400 names the field as a validation error does. */
export function requireFutureExpiry(clock: Clock, expiresAt: string | null | undefined, message: string) {
  if (!expiresAt) return null;
  const at = new Date(expiresAt).toISOString();
  if (at <= isoNow(clock)) throw new AppError('BAD_REQUEST', message, { errors: [{ path: 'expiresAt', message }] });
  return at;
}

/** Links and keys stop working at their expiry (null: never). */
export const isExpired = (clock: Clock, expiresAt: string | null) => expiresAt !== null && expiresAt <= isoNow(clock);
