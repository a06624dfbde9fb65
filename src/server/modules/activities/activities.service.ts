import type { ActivityType } from '@shared/contracts/activities';
import type { Db, Executor } from '../../db/database';
import { notFound } from '../../lib/errors';
import { findRecentActivities, insertActivity, toActivity } from './activities.repository';

const DESCRIPTIONS: Record<ActivityType, (botName: string) => string> = {
  bot_created: (name) => `Created ${name}`,
  bot_updated: (name) => `Updated ${name}`,
  bot_deleted: (name) => `Deleted ${name}`,
  bot_activated: (name) => `Activated ${name}`,
  bot_deactivated: (name) => `Deactivated ${name}`,
  custom_prompt_saved: (name) => `Saved a custom prompt for ${name}`,
  chat_started: (name) => `Started a chat with ${name}`,
  bot_sharing_changed: (name) => `Changed who can use ${name}`,
};

export interface ActivityInput {
  userId: number;
  type: ActivityType;
  bot: { id: number; name: string };
  /** ISO timestamp, from the caller's clock. */
  at: string;
}

/** Records one event of the user's history; pass the transaction of the change it describes. */
export async function recordActivity(db: Executor, input: ActivityInput): Promise<void> {
  await insertActivity(db, {
    userId: input.userId,
    type: input.type,
    description: DESCRIPTIONS[input.type](input.bot.name),
    botId: input.bot.id,
    botName: input.bot.name,
    createdAt: input.at,
  });
}

/** A user's own history only: asking for anyone else's answers 404, as if they did not exist (decisions §1). */
export async function listActivities(deps: { db: Db }, callerId: number, userId: number, limit: number) {
  if (userId !== callerId) throw notFound('User');
  const rows = await findRecentActivities(deps.db.kysely, userId, limit);
  return rows.map(toActivity);
}
