import type { ActivityType } from '@shared/contracts/activities';
import type { Bot, BotConfig, CreateBotBody, UpdateBotBody } from '@shared/contracts/bots';
import { BOT_MESSAGES } from '@shared/contracts/bots';
import type { Db, Executor } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import {
  deleteBotWithConversations,
  findBotsOfUser,
  findOwnedBot,
  insertBot,
  toBot,
  updateBotFields,
  type BotFields,
} from './bots.repository';

export interface BotsDeps {
  db: Db;
  clock: Clock;
}

/** The caller's bot, or 404 whether it is missing or someone else's; chat routes use it too. */
export async function requireOwnedBot(db: Executor, userId: number, botId: number): Promise<Bot> {
  const row = await findOwnedBot(db, userId, botId);
  if (!row) throw new AppError('NOT_FOUND', BOT_MESSAGES.notFound);
  return toBot(row);
}

export async function listBots(deps: BotsDeps, userId: number): Promise<Bot[]> {
  return (await findBotsOfUser(deps.db.kysely, userId)).map(toBot);
}

export const getBot = (deps: BotsDeps, userId: number, botId: number) => requireOwnedBot(deps.db.kysely, userId, botId);

export async function createBot(deps: BotsDeps, userId: number, body: CreateBotBody): Promise<Bot> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const bot = toBot(
      await insertBot(
        tx,
        userId,
        {
          name: body.name,
          description: body.description,
          purpose: body.purpose,
          icon: body.icon,
          active: body.active ?? true,
          capabilities: body.capabilities,
          config: body.config,
        },
        at,
      ),
    );
    await recordActivity(tx, { userId, type: 'bot_created', bot, at });
    return bot;
  });
}

/** Config values are flat primitives, so comparing key by key is a full comparison. */
function sameConfig(a: BotConfig, b: BotConfig, ignore: keyof BotConfig): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof BotConfig)[]);
  return [...keys].every((k) => k === ignore || a[k] === b[k]);
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** What a change means in the user's history; one PATCH can mean several things. */
function activitiesFor(before: Bot, after: Bot): ActivityType[] {
  const edited =
    before.name !== after.name ||
    before.description !== after.description ||
    before.purpose !== after.purpose ||
    before.icon !== after.icon ||
    !sameSet(before.capabilities, after.capabilities) ||
    !sameConfig(before.config, after.config, 'customPrompt');
  const types: ActivityType[] = [];
  if (edited) types.push('bot_updated');
  if ((before.config.customPrompt ?? '') !== (after.config.customPrompt ?? '')) types.push('custom_prompt_saved');
  if (before.active !== after.active) types.push(after.active ? 'bot_activated' : 'bot_deactivated');
  return types;
}

export async function updateBot(deps: BotsDeps, userId: number, botId: number, body: UpdateBotBody): Promise<Bot> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const before = await requireOwnedBot(tx, userId, botId);
    const fields: BotFields = {
      name: body.name ?? before.name,
      description: body.description ?? before.description,
      purpose: body.purpose ?? before.purpose,
      icon: body.icon ?? before.icon,
      active: body.active ?? before.active,
      capabilities: body.capabilities ?? before.capabilities,
      config: { ...before.config, ...body.config },
    };
    const after = toBot(await updateBotFields(tx, botId, fields, at));
    for (const type of activitiesFor(before, after)) {
      await recordActivity(tx, { userId, type, bot: after, at });
    }
    return after;
  });
}

export async function deleteBot(deps: BotsDeps, userId: number, botId: number) {
  const at = isoNow(deps.clock);
  await deps.db.kysely.transaction().execute(async (tx) => {
    const bot = await requireOwnedBot(tx, userId, botId);
    await deleteBotWithConversations(tx, bot.id);
    await recordActivity(tx, { userId, type: 'bot_deleted', bot, at });
  });
  return { message: BOT_MESSAGES.deleted };
}
