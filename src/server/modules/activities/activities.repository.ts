import type { Selectable } from 'kysely';
import type { Activity, ActivityType } from '@shared/contracts/activities';
import type { ActivitiesTable, Executor } from '../../db/database';

export type ActivityRow = Selectable<ActivitiesTable>;

export function toActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    type: row.type as ActivityType,
    description: row.description,
    botId: row.bot_id,
    botName: row.bot_name,
    createdAt: row.created_at,
  };
}

export interface NewActivity {
  userId: number;
  type: string;
  description: string;
  botId: number | null;
  botName: string | null;
  createdAt: string;
}

export const insertActivity = (db: Executor, a: NewActivity) =>
  db
    .insertInto('activities')
    .values({
      user_id: a.userId,
      type: a.type,
      description: a.description,
      bot_id: a.botId,
      bot_name: a.botName,
      created_at: a.createdAt,
    })
    .execute();

/** Newest first; activities recorded in the same instant keep the order they were recorded in. */
export const findRecentActivities = (db: Executor, userId: number, limit: number) =>
  db
    .selectFrom('activities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
