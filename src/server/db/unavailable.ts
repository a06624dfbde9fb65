/**
 * Errors that mean "the database cannot be reached right now", as opposed to a bug in a query: a refused or
 * dropped connection, a server shutting down or starting, a pool that timed out waiting for a connection.
 * Requests that hit one answer 503 instead of 500, and the pool reconnects once the server is back.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'SQLITE_BUSY',
]);
// PostgreSQL SQLSTATEs: 08xxx connection exceptions, 57P01-57P03 admin shutdown / crash / cannot connect now.
const POSTGRES_STATES = /^(08...|57P0[123])$/;
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'driver has already been destroyed',
  'Cannot use a pool after calling end',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || POSTGRES_STATES.test(code))) return true;
  if (MESSAGES.some((m) => err.message.includes(m))) return true;
  // AggregateError from a dual-stack connect attempt carries the per-address causes.
  return err instanceof AggregateError && err.errors.some(isDatabaseUnavailable);
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable right now. Please try again in a moment.';
