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

/**
 * Whether version `number` of the bot may still take in more knowledge changes rather than a version after it:
 * it changed knowledge alone, since `since`, is not the published one and no evaluation tested it.
 */
export async function isOpenKnowledgeVersion(db: Executor, botId: number, number: number, since: string) {
  const row = await db
    .selectFrom('bot_versions as v')
    .innerJoin('bots as b', 'b.id', 'v.bot_id')
    .select('v.number')
    .where('v.bot_id', '=', botId)
    .where('v.number', '=', number)
    .where('v.changed', '=', toJson(['knowledge']))
    .where('v.created_at', '>=', since)
    .where((eb) => eb.or([eb('b.published_version', 'is', null), eb('b.published_version', '!=', number)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('evaluations as e')
            .select('e.id')
            .where('e.bot_id', '=', botId)
            .where('e.bot_version', '=', number),
        ),
      ),
    )
    .executeTakeFirst();
  return row !== undefined;
}

export const replaceVersionSnapshot = (db: Executor, botId: number, number: number, snapshot: BotSnapshot) =>
  db
    .updateTable('bot_versions')
    .set({ snapshot: toJson(snapshot) })
    .where('bot_id', '=', botId)
    .where('number', '=', number)
    .execute();
