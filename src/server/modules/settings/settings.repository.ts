import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

/** Every stored setting, as parsed JSON by key. */
export async function readSettings(db: Executor): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('app_settings').select(['key', 'value']).execute();
  return Object.fromEntries(rows.map((row) => [row.key, fromJson(row.value)]));
}

export async function writeSetting(db: Executor, key: string, value: unknown, now: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key, value: toJson(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: toJson(value), updated_at: now }))
    .execute();
}
