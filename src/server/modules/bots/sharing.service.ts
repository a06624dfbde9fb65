import type { UpdateBotSharingBody } from '@shared/contracts/bot-sharing';
import type { Bot } from '@shared/contracts/bots';
import {
  EXPLORE_PAGE_SIZE,
  SHARED_BOT_MESSAGES,
  type ExplorePage,
  type ExploreQuery,
  type SharedBot,
  type ShareLink,
} from '@shared/contracts/shared-bots';
import type { Executor } from '../../db/database';
import { isoNow } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { toBot, toReplyBot, type ReplyBot, type ReplyBotRow } from './bots.repository';
import { createBot, requireOwnedBot, type BotsDeps } from './bots.service';
import { ownerLimitColumns } from '../usage/usage.service';
import {
  countUsers,
  findBotByShareHash,
  findConversationWithUsableBot,
  findPublicBots,
  findUsableBot,
  findUsableBotWithOwner,
  forgetGuests,
  recordGuest,
  setShareHash,
  updateSharingFields,
  type ConversationWithBotRow,
  type SharedBotRow,
} from './sharing.repository';

const notFound = () => new AppError('NOT_FOUND', SHARED_BOT_MESSAGES.notFound);

/**
 * A bot the caller may chat with: their own, a public one, or a link bot whose link they opened. Anything else
 * (missing, private, a link they never opened) is 404. Chat uses it; editing stays with requireOwnedBot.
 */
export async function requireUsableBot(db: Executor, userId: number, botId: number): Promise<Bot> {
  const row = await findUsableBot(db, userId, botId);
  if (!row) throw notFound();
  return toBot(row);
}

/**
 * requireUsableBot for a reply (or an attachment) in the caller's conversation, read with the conversation in
 * one statement: null when the conversation is not theirs (the caller answers that 404), 404 like
 * requireUsableBot when the bot (`botId`, or else the conversation's own) is not usable.
 */
export async function findConversationForReply(
  db: Executor,
  userId: number,
  conversationId: number,
  botId?: number,
): Promise<{ conversation: { id: number; botId: number; titleSource: string }; bot: ReplyBot } | null> {
  const row = await findConversationWithUsableBot(db, userId, conversationId, botId);
  return row ? toConversationForReply(row) : null;
}

/** A row of conversationWithBot as findConversationForReply answers it. */
export function toConversationForReply(row: ConversationWithBotRow) {
  const {
    conversation_id,
    conversation_bot_id,
    conversation_title_source,
    owner_role,
    owner_daily_token_limit,
    owner_daily_reply_limit,
    ...bot
  } = row;
  if (bot.id === null || bot.user_id === null || owner_role === null) throw notFound();
  return {
    conversation: { id: conversation_id, botId: conversation_bot_id, titleSource: conversation_title_source },
    bot: toReplyBot(bot as ReplyBotRow),
    owner: ownerLimitColumns(bot.user_id, { owner_role, owner_daily_token_limit, owner_daily_reply_limit }),
  };
}

/**
 * Changes only the fields sent; not a new version (sharing is not part of the bot's prompt or settings). A
 * change of visibility drops everyone who got in through the link: going private stops the link at once (and
 * forgets it), going from public to link keeps out those who only found the bot on Explore.
 */
export async function updateSharing(
  deps: BotsDeps,
  userId: number,
  botId: number,
  body: UpdateBotSharingBody,
): Promise<Bot> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const before = (await requireOwnedBot(tx, userId, botId)).sharing;
    const after = toBot(
      await updateSharingFields(
        tx,
        botId,
        {
          visibility: body.visibility ?? before.visibility,
          showPrompt: body.showPrompt ?? before.showPrompt,
          embedOrigins: body.embedOrigins ?? before.embedOrigins,
          embedDailyCap: body.embedDailyCap ?? before.embedDailyCap,
        },
        at,
      ),
    );
    if (after.sharing.visibility !== before.visibility) {
      await forgetGuests(tx, botId);
      await recordActivity(tx, { userId, type: 'bot_sharing_changed', bot: after, at });
    }
    return after;
  });
}

/**
 * Makes the bot's link, or a new one in place of the old, which stops working at once (with the rights of those
 * who opened it). The plain slug is answered only here: the database keeps its hash (decisions §5).
 */
export async function createShareLink(deps: BotsDeps, userId: number, botId: number): Promise<ShareLink> {
  return deps.db.kysely.transaction().execute(async (tx) => {
    const bot = await requireOwnedBot(tx, userId, botId);
    if (bot.sharing.visibility === 'private') throw new AppError('CONFLICT', SHARED_BOT_MESSAGES.linkNeedsSharing);
    const { token, hash } = newToken();
    await setShareHash(tx, botId, hash);
    await forgetGuests(tx, botId);
    return { slug: token, url: `/b/${token}` };
  });
}

function toSharedBot(row: SharedBotRow, userId: number, usersCount: number): SharedBot {
  const bot = toBot(row);
  const isOwner = bot.userId === userId;
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    purpose: bot.purpose,
    icon: bot.icon,
    capabilities: bot.capabilities,
    greeting: bot.config.greeting || null,
    exampleQueries: bot.exampleQueries,
    active: bot.active,
    visibility: bot.sharing.visibility,
    ownerName: row.owner_full_name?.trim() || row.owner_username,
    isOwner,
    usersCount,
    settings: isOwner || bot.sharing.showPrompt ? bot.config : null,
  };
}

async function withUsers(db: Executor, userId: number, rows: SharedBotRow[]): Promise<SharedBot[]> {
  const counts = await countUsers(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toSharedBot(row, userId, counts.get(row.id) ?? 0));
}

async function requireLinkedBot(db: Executor, slug: string): Promise<SharedBotRow> {
  const row = await findBotByShareHash(db, hashToken(slug));
  if (!row) throw notFound();
  return row;
}

/** GET /api/shared/bots/{slug}: opening the link lets the caller chat with the bot, and counts them as a user. */
export async function openSharedBot(deps: BotsDeps, userId: number, slug: string): Promise<SharedBot> {
  const db = deps.db.kysely;
  const row = await requireLinkedBot(db, slug);
  if (row.user_id !== userId) await recordGuest(db, row.id, userId, isoNow(deps.clock));
  const [view] = await withUsers(db, userId, [row]);
  return view!;
}

/** GET /api/explore/bots/{id}: a bot the caller may use, as they see it (the chat page of a shared bot). */
export async function getUsableBot(deps: BotsDeps, userId: number, botId: number): Promise<SharedBot> {
  const row = await findUsableBotWithOwner(deps.db.kysely, userId, botId);
  if (!row) throw notFound();
  const [view] = await withUsers(deps.db.kysely, userId, [row]);
  return view!;
}

const encodeCursor = (row: SharedBotRow) => Buffer.from(JSON.stringify([row.updated_at, row.id])).toString('base64url');

function decodeCursor(cursor: string) {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof updatedAt === 'string' && Number.isSafeInteger(id)) return { updatedAt, id: id as number };
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('BAD_REQUEST', SHARED_BOT_MESSAGES.cursor);
}

/** The Explore page: public bots whose name or description holds every word searched, of one purpose if asked. */
export async function explorePublicBots(deps: BotsDeps, userId: number, query: ExploreQuery): Promise<ExplorePage> {
  const db = deps.db.kysely;
  const rows = await findPublicBots(db, {
    words: (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8),
    purpose: query.purpose,
    cursor: query.cursor ? decodeCursor(query.cursor) : null,
    limit: EXPLORE_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, EXPLORE_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: await withUsers(db, userId, page),
    nextCursor: rows.length > EXPLORE_PAGE_SIZE && last ? encodeCursor(last) : null,
  };
}

/**
 * "Add to my botties": a private copy for the caller with the bot's description, settings and starters. The
 * prompt comes along only when the owner shows it; otherwise the copy answers from its description and
 * settings (the prompt composed locally). No knowledge files, sharing, test notes or history.
 */
async function copyRow(deps: BotsDeps, userId: number, row: SharedBotRow): Promise<Bot> {
  const bot = toBot(row);
  const { systemPrompt: _systemPrompt, customPrompt: _customPrompt, ...settings } = bot.config;
  const showsPrompt = bot.userId === userId || bot.sharing.showPrompt;
  return createBot(deps, userId, {
    name: bot.name,
    description: bot.description,
    purpose: bot.purpose,
    icon: bot.icon,
    capabilities: bot.capabilities,
    config: showsPrompt ? bot.config : settings,
    exampleQueries: bot.exampleQueries,
    testNotes: [],
  });
}

export async function copySharedBot(deps: BotsDeps, userId: number, slug: string): Promise<Bot> {
  return copyRow(deps, userId, await requireLinkedBot(deps.db.kysely, slug));
}

export async function copyUsableBot(deps: BotsDeps, userId: number, botId: number): Promise<Bot> {
  const row = await findUsableBotWithOwner(deps.db.kysely, userId, botId);
  if (!row) throw notFound();
  return copyRow(deps, userId, row);
}
