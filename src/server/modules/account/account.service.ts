import type { DeleteAccountBody } from '@shared/contracts/account';
import { ACCOUNT_MESSAGES } from '@shared/contracts/account';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import { toActivity } from '../activities/activities.service';
import type { Session } from '../auth/auth.service';
import type { SessionCache } from '../auth/session-cache';
import { toBot } from '../bots/bots.repository';
import { toConversation } from '../chat/conversations.repository';
import { toMessage } from '../chat/messages.repository';
import { findFilesOfUser, toFile } from '../files/files.repository';
import { findUserById } from '../users/users.repository';
import { deleteUser, findEverythingOwnedBy } from './account.repository';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  sessions: SessionCache<Session>;
}

export async function exportAccount(deps: AccountDeps, session: Session) {
  const owned = await findEverythingOwnedBy(deps.db.kysely, session.user.id);
  return {
    exportedAt: isoNow(deps.clock),
    user: session.user,
    bots: owned.bots.map(toBot),
    conversations: owned.conversations.map(toConversation),
    messages: owned.messages.map((row) => toMessage(row)),
    activities: owned.activities.map(toActivity),
    // The files' details; their bytes are downloadable one by one from /api/files/{id}/content.
    files: (await findFilesOfUser(deps.db.kysely, session.user.id)).map(toFile),
  };
}

/** The password is asked again so a borrowed, signed-in browser cannot erase an account. */
export async function deleteAccount(deps: AccountDeps, session: Session, body: DeleteAccountBody) {
  const row = await findUserById(deps.db.kysely, session.user.id);
  if (!row || !(await verifyPassword(row.password_hash, body.password))) {
    throw new AppError('BAD_REQUEST', ACCOUNT_MESSAGES.wrongPassword);
  }
  await deps.db.kysely.transaction().execute((tx) => deleteUser(tx, row.id));
  await deps.sessions.forgetUser(row.id);
  return { message: ACCOUNT_MESSAGES.deleted };
}
