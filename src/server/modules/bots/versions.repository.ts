import type { Selectable } from 'kysely';
import type { BotSnapshot, BotVersion, BotVersionSummary } from '@shared/contracts/bot-versions';
import type { BotVersionsTable, Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

type VersionRow = Selectable<BotVersionsTable>;

function toSummary(row: VersionRow): BotVersionSummary {
  return {
    number: row.number,
    changed: fromJson(row.changed) as string[],
    restoredFrom: row.restored_from,
    createdAt: row.created_at,
  };
}

const toVersion = (row: VersionRow): BotVersion => ({
  ...toSummary(row),
  snapshot: fromJson(row.snapshot) as BotSnapshot,
});

export interface NewVersion {
  botId: number;
  number: number;
  changed: readonly string[];
  snapshot: BotSnapshot;
  restoredFrom?: number;
}

export const insertVersion = (db: Executor, v: NewVersion, now: string) =>
  db
    .insertInto('bot_versions')
    .values({
      bot_id: v.botId,
      number: v.number,
      changed: toJson(v.changed),
      snapshot: toJson(v.snapshot),
      restored_from: v.restoredFrom ?? null,
      created_at: now,
    })
    .execute();

/** Newest first. */
export async function findVersions(db: Executor, botId: number): Promise<BotVersionSummary[]> {
  const rows = await db
    .selectFrom('bot_versions')
    .selectAll()
    .where('bot_id', '=', botId)
    .orderBy('number', 'desc')
    .execute();
  return rows.map(toSummary);
}

export async function findVersion(db: Executor, botId: number, number: number): Promise<BotVersion | undefined> {
  const row = await db
    .selectFrom('bot_versions')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row && toVersion(row);
}
