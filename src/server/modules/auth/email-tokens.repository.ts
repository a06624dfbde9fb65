import type { EmailTokenPurpose, Executor } from '../../db/database';

export const insertEmailToken = (
  db: Executor,
  t: { userId: number; purpose: EmailTokenPurpose; tokenHash: string; now: string; expiresAt: string },
) =>
  db
    .insertInto('email_tokens')
    .values({
      user_id: t.userId,
      purpose: t.purpose,
      token_hash: t.tokenHash,
      created_at: t.now,
      expires_at: t.expiresAt,
    })
    .execute();

export const findEmailToken = (db: Executor, purpose: EmailTokenPurpose, tokenHash: string) =>
  db
    .selectFrom('email_tokens')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();

/** Marks the token used only if nobody used it first, so two concurrent clicks cannot both succeed. */
export async function consumeEmailToken(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Older links stop working when a new one is sent or the purpose is fulfilled. */
export const invalidateEmailTokens = (db: Executor, userId: number, purpose: EmailTokenPurpose, now: string) =>
  db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();

/** Used or not, a link past its expiry can never work again. */
export async function deleteExpiredEmailTokens(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('email_tokens').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
