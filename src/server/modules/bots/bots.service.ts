import type { ActivityType } from '@shared/contracts/activities';
import type { BotSnapshot } from '@shared/contracts/bot-versions';
import type { Bot, CreateBotBody, UpdateBotBody } from '@shared/contracts/bots';
import { BOT_MESSAGES } from '@shared/contracts/bots';
import type { Db, DbScope, Executor } from '../../db/database';
import { inTransaction } from '../../db/write-atomically';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import type { TestCaseFields } from '../test-cases/test-cases.repository';
import { seedTestSet, testsFromExampleQueries } from '../test-cases/test-set';
import { checkBotTools } from '../tools/mcp-servers.service';
import { changedFields, snapshotOf } from './bot-snapshot';
import {
  deleteBotWithConversations,
  findBotsOfUser,
  findKnowledgeManifest,
  findOwnedBot,
  findOwnedBotToChange,
  findOwnedReplyBot,
  findReplyBot,
  insertBot,
  toBot,
  toReplyBot,
  updateBotFields,
  type BotFields,
  type BotRow,
  type ReplyBot,
} from './bots.repository';
import { findVersion, insertVersion, isOpenKnowledgeVersion, replaceVersionSnapshot } from './versions.repository';

export interface BotsDeps {
  db: Db;
  clock: Clock;
}

function foundBot(row: BotRow | undefined): Bot {
  if (!row) throw new AppError('NOT_FOUND', BOT_MESSAGES.notFound);
  return toBot(row);
}

/** The caller's bot, or 404 whether it is missing or someone else's; chat routes use it too. */
export const requireOwnedBot = async (db: Executor, userId: number, botId: number): Promise<Bot> =>
  foundBot(await findOwnedBot(db, userId, botId));

/** The caller's bot, locked until the transaction of `scope` ends (writes that hang on it wait in turn), or 404. */
export const requireOwnedBotToChange = async (scope: DbScope, userId: number, botId: number): Promise<Bot> =>
  foundBot(await findOwnedBotToChange(scope, userId, botId));

/**
 * Any bot by id as a reply uses it, whoever owns it, or undefined: for the widget, whose visitors are nobody's
 * users, so the caller checks the bot's sharing itself.
 */
export async function findAnyReplyBot(db: Executor, botId: number): Promise<ReplyBot | undefined> {
  const row = await findReplyBot(db, botId);
  return row && toReplyBot(row);
}

/** The caller's bot as a reply reads it, or undefined (the OpenAI-compatible API answers its own 404). */
export async function findOwnedReplyBotOf(db: Executor, userId: number, botId: number): Promise<ReplyBot | undefined> {
  const [row] = await findOwnedReplyBot(db, { userId, botId });
  return row && toReplyBot(row);
}

/** The caller's bot, or undefined. */
export async function findOwnedBotOf(db: Executor, userId: number, botId: number): Promise<Bot | undefined> {
  const row = await findOwnedBot(db, userId, botId);
  return row && toBot(row);
}

export async function listBots(deps: BotsDeps, userId: number): Promise<Bot[]> {
  return (await findBotsOfUser(deps.db.kysely, userId)).map(toBot);
}

export const getBot = (deps: BotsDeps, userId: number, botId: number) => requireOwnedBot(deps.db.kysely, userId, botId);

/**
 * Creates the caller's bot at version 1. Its test set is `tests` when given (an imported bot file's), else its
 * example queries with their Train-step notes (decision 0041).
 */
export async function createBot(
  deps: BotsDeps,
  userId: number,
  body: CreateBotBody,
  tests?: readonly TestCaseFields[],
): Promise<Bot> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    if (body.config.tools) await checkBotTools(tx, userId, body.config.tools, 'require');
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
          exampleQueries: body.exampleQueries,
          testNotes: body.testNotes,
        },
        at,
      ),
    );
    const snapshot = { ...snapshotOf(bot), knowledge: [] };
    await insertVersion(tx, { botId: bot.id, number: bot.version, changed: [], snapshot }, at);
    await seedTestSet(tx, bot.id, tests ?? testsFromExampleQueries(body.exampleQueries, body.testNotes), at);
    await recordActivity(tx, { userId, type: 'bot_created', bot, at });
    return bot;
  });
}

/** What a change means in the user's history; one PATCH can mean several things. */
function activitiesFor(before: Bot, after: Bot, changed: readonly string[]): ActivityType[] {
  const types: ActivityType[] = [];
  // Files have their own place in the history (uploads and deletions are not edits of the bot's settings).
  if (changed.some((field) => field !== 'customPrompt' && field !== 'knowledge')) types.push('bot_updated');
  if ((before.config.customPrompt ?? '') !== (after.config.customPrompt ?? '')) types.push('custom_prompt_saved');
  if (before.active !== after.active) types.push(after.active ? 'bot_activated' : 'bot_deactivated');
  return types;
}

/** What a restore writes besides the new fields: which version it brought back. */
/**
 * Knowledge changes this close after a version that changed only knowledge join it: a drop of many files, whose
 * uploads finish one by one, is one version in the history, until it is published or tested.
 */
export const KNOWLEDGE_VERSION_WINDOW_MS = 10 * 60_000;

export interface UpdateOrigin {
  restoredFrom?: number;
}

/**
 * Saves the fields sent, or the fields `body` makes of the bot as it is once locked. A change to the prompt,
 * custom prompt or any setting writes the next version (with what changed and a full snapshot); a save that
 * changes none of them, e.g. only `active`, writes none. Simultaneous changes of one bot wait for each other, so
 * each numbers its version after the one before.
 */
export async function updateBot(
  deps: BotsDeps,
  userId: number,
  botId: number,
  bodyOrChange: UpdateBotBody | ((current: Bot) => UpdateBotBody),
  origin: UpdateOrigin = {},
): Promise<Bot> {
  const at = isoNow(deps.clock);
  return inTransaction(deps.db, async (scope) => {
    const tx = scope.kysely;
    const before = foundBot(await findOwnedBotToChange(scope, userId, botId));
    const body = typeof bodyOrChange === 'function' ? bodyOrChange(before) : bodyOrChange;
    // The tools sent must be on servers the owner may use; a restored version's lose those gone since.
    const tools =
      body.config?.tools &&
      (await checkBotTools(tx, userId, body.config.tools, origin.restoredFrom ? 'drop' : 'require'));
    const snapshot: BotSnapshot = {
      name: body.name ?? before.name,
      description: body.description ?? before.description,
      purpose: body.purpose ?? before.purpose,
      icon: body.icon ?? before.icon,
      capabilities: body.capabilities ?? before.capabilities,
      config: { ...before.config, ...body.config, ...(tools ? { tools } : {}) },
      exampleQueries: body.exampleQueries ?? before.exampleQueries,
      knowledge: await findKnowledgeManifest(tx, botId),
    };
    const fields: BotFields = {
      ...snapshot,
      active: body.active ?? before.active,
      testNotes: body.testNotes ?? before.testNotes,
    };
    // The knowledge the version in force recorded: files come and go without a save of the bot's settings.
    const recorded = (await findVersion(tx, botId, before.version))?.snapshot.knowledge;
    const changed = changedFields({ ...snapshotOf(before), knowledge: recorded }, snapshot);
    // Files dropped together (a folder, fifty files) make one version, not one each.
    const since = new Date(deps.clock.now().getTime() - KNOWLEDGE_VERSION_WINDOW_MS).toISOString();
    const joins =
      changed.length === 1 &&
      changed[0] === 'knowledge' &&
      (await isOpenKnowledgeVersion(tx, botId, before.version, since));
    const version = changed.length && !joins ? before.version + 1 : before.version;
    const after = toBot(await updateBotFields(tx, botId, fields, version, at));
    if (joins) await replaceVersionSnapshot(tx, botId, version, snapshot);
    else if (changed.length) {
      await insertVersion(tx, { botId, number: version, changed, snapshot, restoredFrom: origin.restoredFrom }, at);
    }
    for (const type of activitiesFor(before, after, changed)) {
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
