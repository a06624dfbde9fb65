import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { toJson } from '../../db/json';

/**
 * Every stored setting, as parsed JSON by key. Read as text on both engines: a setting may be a JSON string
 * (`"closed"`), which PostgreSQL would hand back already parsed and fromJson would then parse again.
 */
export async function readSettings(db: Executor): Promise<Record<string, unknown>> {
  const rows = await db
    .selectFrom('app_settings')
    .select(['key', sql<string>`cast(value as text)`.as('value')])
    .execute();
  return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
}

export async function writeSetting(db: Executor, key: string, value: unknown, now: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key, value: toJson(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: toJson(value), updated_at: now }))
    .execute();
}
