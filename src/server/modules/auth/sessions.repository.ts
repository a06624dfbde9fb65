import type { Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';
import { USER_COLUMNS } from '../users/users.repository';

export const insertSession = (
  db: Executor,
  s: { userId: number; tokenHash: string; remember: boolean; now: string; expiresAt: string },
) =>
  db
    .insertInto('sessions')
    .values({
      user_id: s.userId,
      token_hash: s.tokenHash,
      remember: s.remember,
      created_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute();

/**
 * The user of a live session of an enabled account with the session's id and expiry, in one statement: every signed-in request asks
 * it (through the session cache), so it reads what a request needs of the user and no more (not the password hash).
 */
const liveSessionUser = preparedQuery((db, v: { tokenHash: string; now: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', v.tokenHash)
    .where('sessions.expires_at', '>', v.now)
    // Disabling deletes the sessions too; this also covers a sign-in that raced with it.
    .where('users.disabled_at', 'is', null),
);

export const findLiveSessionUser = async (db: Executor, tokenHash: string, now: string) =>
  (await liveSessionUser(db, { tokenHash, now }))[0];

export const deleteSessionByHash = (db: Executor, tokenHash: string) =>
  db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();

/** Revokes every session of a user, or every one but the caller's when `keepSessionId` is given. */
export async function deleteUserSessions(db: Executor, userId: number, keepSessionId?: number) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}

export async function deleteExpiredSessions(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
