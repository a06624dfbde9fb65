import type { ExpressionBuilder, Selectable } from 'kysely';
import type { KnowledgeEntry } from '@shared/contracts/bot-versions';
import type { Bot, BotConfig, TestNote } from '@shared/contracts/bots';
import type { BotsTable, Database, DbScope, Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';
import { preparedQuery } from '../../db/prepared-query';

export type BotRow = Selectable<BotsTable>;

/**
 * A bot as a reply uses it: without its training's example queries and test notes, kilobytes of JSON on a
 * trained bot that every reply would read and parse for nothing. Nor the widget's look (the widget module's), nor
 * the knowledge generation (the vector index's).
 */
export type ReplyBot = Omit<Bot, 'exampleQueries' | 'testNotes'>;
const REPLY_BOT_COLUMN_SET: Record<
  Exclude<
    keyof BotsTable,
    'example_queries' | 'test_notes' | 'embed_appearance' | 'release_gate' | 'knowledge_generation'
  >,
  true
> = {
  id: true,
  user_id: true,
  name: true,
  description: true,
  purpose: true,
  icon: true,
  active: true,
  capabilities: true,
  config: true,
  version: true,
  published_version: true,
  usage_count: true,
  last_used: true,
  visibility: true,
  share_hash: true,
  show_prompt: true,
  embed_origins: true,
  embed_daily_cap: true,
  created_at: true,
  updated_at: true,
};
export const REPLY_BOT_COLUMNS = Object.keys(REPLY_BOT_COLUMN_SET) as (keyof typeof REPLY_BOT_COLUMN_SET)[];
export type ReplyBotRow = Pick<BotRow, (typeof REPLY_BOT_COLUMNS)[number]>;

export const toBot = (row: BotRow): Bot => ({
  ...toReplyBot(row),
  exampleQueries: fromJson(row.example_queries) as string[],
  testNotes: fromJson(row.test_notes) as TestNote[],
});

export function toReplyBot(row: ReplyBotRow): ReplyBot {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    purpose: row.purpose as Bot['purpose'],
    icon: row.icon as Bot['icon'],
    userId: row.user_id,
    active: Boolean(row.active),
    capabilities: fromJson(row.capabilities) as Bot['capabilities'],
    config: fromJson(row.config) as BotConfig,
    version: row.version,
    publishedVersion: row.published_version,
    usageCount: row.usage_count,
    lastUsed: row.last_used,
    createdAt: row.created_at,
    sharing: {
      visibility: row.visibility,
      hasLink: row.share_hash !== null,
      showPrompt: Boolean(row.show_prompt),
      embedOrigins: fromJson(row.embed_origins) as string[],
      embedDailyCap: row.embed_daily_cap,
    },
  };
}

export const findBotsOfUser = (db: Executor, userId: number) =>
  db
    .selectFrom('bots')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The bot only when it belongs to `userId`; someone else's bot is indistinguishable from a missing one. */
export const findOwnedBot = (db: Executor, userId: number, botId: number) =>
  db.selectFrom('bots').selectAll().where('id', '=', botId).where('user_id', '=', userId).executeTakeFirst();

/**
 * findOwnedBot for a change, locked until the caller's transaction ends (PostgreSQL; SQLite runs one transaction at
 * a time): a change numbers its version from the bot's, so simultaneous changes must each read the one before.
 * NO KEY, like the update that follows: rows referencing the bot are not held up.
 */
export function findOwnedBotToChange(scope: DbScope, userId: number, botId: number) {
  const query = scope.kysely.selectFrom('bots').selectAll().where('id', '=', botId).where('user_id', '=', userId);
  return (scope.kind === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

/** findOwnedBot as a reply reads it (see ReplyBot); on every request of the OpenAI-compatible API. */
export const findOwnedReplyBot = preparedQuery((db, v: { userId: number; botId: number }) =>
  db.selectFrom('bots').select(REPLY_BOT_COLUMNS).where('id', '=', v.botId).where('user_id', '=', v.userId),
);

/** Any bot by id as a reply reads it, whoever owns it. */
/** A bot as a reply reads it, for people other than its owner: none while an admin has disabled the owner. */
export const findReplyBot = (db: Executor, botId: number) =>
  db
    .selectFrom('bots')
    .select(REPLY_BOT_COLUMNS.map((column) => `bots.${column}` as const))
    .where('bots.id', '=', botId)
    .where(ownerActive)
    .executeTakeFirst();

/** The bot's owner is not disabled: a disabled account's shared bots, links and widget stop with its sessions. */
export const ownerActive = (eb: ExpressionBuilder<Database, 'bots'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('users as owner')
        .select('owner.id')
        .whereRef('owner.id', '=', 'bots.user_id')
        .where('owner.disabled_at', 'is not', null),
    ),
  );

export interface BotFields {
  name: string;
  description: string;
  purpose: string;
  icon: string;
  active: boolean;
  capabilities: readonly string[];
  config: BotConfig;
  exampleQueries: readonly string[];
  testNotes: readonly TestNote[];
}

const botColumns = (b: BotFields) => ({
  name: b.name,
  description: b.description,
  purpose: b.purpose,
  icon: b.icon,
  active: b.active,
  capabilities: toJson(b.capabilities),
  config: toJson(b.config),
  example_queries: toJson(b.exampleQueries),
  test_notes: toJson(b.testNotes),
});

export const insertBot = (db: Executor, userId: number, b: BotFields, now: string) =>
  db
    .insertInto('bots')
    .values({ ...botColumns(b), user_id: userId, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateBotFields = (db: Executor, botId: number, b: BotFields, version: number, now: string) =>
  db
    .updateTable('bots')
    .set({ ...botColumns(b), version, updated_at: now })
    .where('id', '=', botId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Counts `uses` replies of the bot (usageCount, lastUsed); not an edit, so updated_at stays. See bot-use.ts. */
const botUse = preparedQuery((db, v: { botId: number; now: string; uses: number }) =>
  db
    .updateTable('bots')
    .set((eb) => ({
      usage_count: eb('usage_count', '+', v.uses),
      // Uses are written as they come together (bot-use.ts), so a later write may carry earlier ones.
      last_used: eb
        .case()
        .when(eb.or([eb('last_used', 'is', null), eb('last_used', '<', v.now)]))
        .then(v.now)
        .else(eb.ref('last_used'))
        .end(),
    }))
    .where('id', '=', v.botId),
);

export const addBotUses = (db: Executor, botId: number, now: string, uses: number) => botUse(db, { botId, now, uses });

/**
 * Removes a bot with its conversations and messages. The foreign keys cascade too; deleting explicitly keeps
 * the outcome the same on a database whose foreign keys are off (SQLite's default outside our connection).
 */
export async function deleteBotWithConversations(db: Executor, botId: number) {
  const conversations = db.selectFrom('conversations').select('id').where('bot_id', '=', botId);
  await db.deleteFrom('messages').where('conversation_id', 'in', conversations).execute();
  await db.deleteFrom('conversations').where('bot_id', '=', botId).execute();
  await db.deleteFrom('bots').where('id', '=', botId).execute();
}

/** The bot's knowledge files as a version records them, oldest first. */
export async function findKnowledgeManifest(db: Executor, botId: number): Promise<KnowledgeEntry[]> {
  const rows = await db
    .selectFrom('files')
    .select(['id', 'name', 'content_hash'])
    .where('bot_id', '=', botId)
    .where('conversation_id', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ fileId: row.id, name: row.name, hash: row.content_hash }));
}
