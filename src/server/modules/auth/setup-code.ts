import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db, DbScope } from '../../db/database';
import { inTransaction } from '../../db/write-atomically';
import { AppError } from '../../lib/errors';
import { isFirstUser } from '../users/users.service';

export const SETUP_CODE_MESSAGES = {
  missing: 'This server has no account yet: enter the setup code printed in the server log to create the first one',
  wrong: 'The setup code is not right: use the one printed in the server log at start',
} as const;

/**
 * Names that never resolve on the public internet (RFC 6761 `localhost` and `test`, the loopback addresses): a
 * server reachable only there is the operator's own machine, so its first account needs no code.
 */
export function isLocalUrl(appUrl: string) {
  const host = new URL(appUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'test' || host.endsWith('.test')) return true;
  if (host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The one-time code that the first account of a public server needs (decision 0030), as Jenkins does: whoever
 * reads this instance's log owns the server, not whoever finds it first. Each instance has its own code.
 */
export interface SetupCode {
  /** Whether a sign-up must carry the code now: a public server with no account yet. */
  required(): Promise<boolean>;
  /** Inside the sign-up's transaction, before the first account is written; throws 403 unless the code fits. */
  check(scope: DbScope, given: string | undefined): Promise<boolean>;
  /** Prints the code once, at start, while the server has no account. */
  announce(): Promise<void>;
}

export function createSetupCode(deps: {
  db: Db;
  log: FastifyBaseLogger;
  config: Pick<Config, 'appUrl' | 'admin'>;
}): SetupCode {
  // ADMIN_* creates the first account itself; a local server is its operator's.
  const needed = !deps.config.admin && !isLocalUrl(deps.config.appUrl);
  // Letters and digits without look-alikes (0/O, 1/l/I), in groups of four: read from a log and typed by hand.
  const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const code = needed
    ? [...randomBytes(16)]
        .map((b) => alphabet[b % alphabet.length])
        .join('')
        .replace(/(.{4})(?!$)/g, '$1-')
    : '';
  const expected = digest(code);
  let announced = false;

  const noAccount = () => inTransaction(deps.db, (scope) => isFirstUser(scope));

  function announceNow() {
    announced = true;
    deps.log.warn(
      { setupCode: code },
      `This server has no account yet. To create the first one (its administrator), open ${deps.config.appUrl}/register ` +
        `and enter this setup code: ${code} (it is printed at every start until the first account exists; ` +
        'or set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD instead)',
    );
  }

  return {
    required: async () => needed && (await noAccount()),
    async check(scope, given) {
      const first = await isFirstUser(scope);
      if (!needed || !first) return first;
      // Should every account go away later, the log would not show a code printed at start: print it again.
      if (!announced) announceNow();
      if (!given) throw new AppError('FORBIDDEN', SETUP_CODE_MESSAGES.missing);
      // Hashing first makes both sides the same length, so the comparison takes the same time whatever was sent.
      const normalized = given.trim().toUpperCase();
      if (!timingSafeEqual(digest(normalized), expected)) throw new AppError('FORBIDDEN', SETUP_CODE_MESSAGES.wrong);
      return first;
    },
    async announce() {
      if (needed && !announced && (await noAccount())) announceNow();
    },
  };
}
