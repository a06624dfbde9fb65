import type { Selectable } from 'kysely';
import type { Invitation } from '@shared/contracts/admin';
import type { Executor, InvitationsTable } from '../../db/database';

export type InvitationRow = Selectable<InvitationsTable>;

export const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

export const findInvitations = (db: Executor) =>
  db.selectFrom('invitations').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export const insertInvitation = (
  db: Executor,
  i: { tokenHash: string; email: string | null; createdBy: number; now: string; expiresAt: string },
) =>
  db
    .insertInto('invitations')
    .values({
      token_hash: i.tokenHash,
      email: i.email,
      created_by: i.createdBy,
      created_at: i.now,
      expires_at: i.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteInvitation = (db: Executor, id: number) =>
  db.deleteFrom('invitations').where('id', '=', id).executeTakeFirst();

export const findInvitationByHash = (db: Executor, tokenHash: string) =>
  db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/**
 * Marks an invitation used if it still can be, in one conditional statement: of two sign-ups racing with one
 * link, the second waits for the first's row lock (PostgreSQL) or write (SQLite) and then updates nothing.
 */
export async function useInvitation(db: Executor, id: number, userId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used_at: now, used_by: userId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
