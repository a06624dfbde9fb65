import type { Selectable } from 'kysely';
import type { ApiKey } from '@shared/contracts/keys';
import type { ApiKeysTable, Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export const toApiKey = (row: ApiKeyRow & { bot_name: string | null }): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  botId: row.bot_id,
  botName: row.bot_name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
});

const keysWithBotName = (db: Executor) =>
  db
    .selectFrom('api_keys')
    .leftJoin('bots', 'bots.id', 'api_keys.bot_id')
    .selectAll('api_keys')
    .select('bots.name as bot_name');

export const findKeysOfUser = (db: Executor, userId: number) =>
  keysWithBotName(db)
    .where('api_keys.user_id', '=', userId)
    .orderBy('api_keys.created_at', 'desc')
    .orderBy('api_keys.id', 'desc')
    .execute();

export const findKeyOfUser = (db: Executor, userId: number, id: number) =>
  keysWithBotName(db).where('api_keys.user_id', '=', userId).where('api_keys.id', '=', id).executeTakeFirstOrThrow();

export interface NewApiKey {
  userId: number;
  botId: number | null;
  name: string;
  prefix: string;
  keyHash: string;
  expiresAt: string | null;
}

export const insertKey = (db: Executor, k: NewApiKey, now: string) =>
  db
    .insertInto('api_keys')
    .values({
      user_id: k.userId,
      bot_id: k.botId,
      name: k.name,
      prefix: k.prefix,
      key_hash: k.keyHash,
      expires_at: k.expiresAt,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const deleteKeyOfUser = (db: Executor, userId: number, id: number) =>
  db.deleteFrom('api_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

/**
 * A key of an enabled account (a disabled one's keys stop at once and work again when it is enabled), with its
 * owner's role and limit columns: the limit check before a reply reads them from here instead of asking again (the
 * bots a key reaches are its owner's).
 */
const keyByHash = preparedQuery((db, v: { keyHash: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select([
      'users.role as owner_role',
      'users.daily_token_limit as owner_daily_token_limit',
      'users.daily_reply_limit as owner_daily_reply_limit',
    ])
    .where('api_keys.key_hash', '=', v.keyHash)
    .where('users.disabled_at', 'is', null),
);
// Prepared: every request to /v1 reads it, as every signed-in request reads its session.
export const findKeyByHash = async (db: Executor, keyHash: string) => (await keyByHash(db, { keyHash }))[0];
export type AuthenticatedKey = NonNullable<Awaited<ReturnType<typeof findKeyByHash>>>;

export const touchKey = (db: Executor, id: number, now: string) =>
  db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();

export async function deleteKeysExpiredBefore(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('api_keys').where('expires_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
