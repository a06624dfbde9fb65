import type { DeleteAccountBody } from '@shared/contracts/account';
import { ACCOUNT_MESSAGES } from '@shared/contracts/account';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { Session } from '../auth/auth.service';
import type { SessionCache } from '../auth/session-cache';
import { findUserWithPassword } from '../users/users.service';
import { deleteUser, findEverythingOwnedBy } from './account.repository';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  sessions: SessionCache<Session>;
}

export async function exportAccount(deps: AccountDeps, session: Session) {
  const owned = await findEverythingOwnedBy(deps.db.kysely, session.user.id);
  // Bots, conversations, messages, activities, and the files' details: their bytes are downloadable one by one
  // from /api/files/{id}/content.
  return { exportedAt: isoNow(deps.clock), user: session.user, ...owned };
}

/** The password is asked again so a borrowed, signed-in browser cannot erase an account. */
export async function deleteAccount(deps: AccountDeps, session: Session, body: DeleteAccountBody) {
  const row = await findUserWithPassword(deps.db.kysely, session.user.id, body.password);
  if (!row) throw new AppError('BAD_REQUEST', ACCOUNT_MESSAGES.wrongPassword);
  await eraseAccount(deps, row.id);
  return { message: ACCOUNT_MESSAGES.deleted };
}

/** Deletes an account with everything it owns and ends its sessions on every instance (also an admin's way). */
export async function eraseAccount(deps: AccountDeps, userId: number) {
  await deps.db.kysely.transaction().execute((tx) => deleteUser(tx, userId));
  await deps.sessions.forgetUser(userId);
}
