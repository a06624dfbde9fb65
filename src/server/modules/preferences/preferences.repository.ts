import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

export const findPreferences = async (db: Executor, userId: number): Promise<unknown> => {
  const row = await db.selectFrom('users').select('preferences').where('id', '=', userId).executeTakeFirst();
  return row?.preferences == null ? null : fromJson(row.preferences);
};

export const savePreferences = (db: Executor, userId: number, preferences: unknown) =>
  db
    .updateTable('users')
    .set({ preferences: toJson(preferences) })
    .where('id', '=', userId)
    .execute();
