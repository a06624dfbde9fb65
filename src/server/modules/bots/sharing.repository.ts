import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { BotsTable, BotVisibility, Database, Executor } from '../../db/database';
import { toJson } from '../../db/json';
import { likePattern } from '../../db/like-pattern';
import { preparedQuery } from '../../db/prepared-query';
import { ownerActive, REPLY_BOT_COLUMNS } from './bots.repository';

export interface SharingFields {
  visibility: BotVisibility;
  showPrompt: boolean;
  embedOrigins: readonly string[];
  embedDailyCap: number;
}

/** Saves who may use the bot; going private forgets its link too, so sharing again needs a new one. */
export const updateSharingFields = (db: Executor, botId: number, s: SharingFields, now: string) =>
  db
    .updateTable('bots')
    .set({
      visibility: s.visibility,
      show_prompt: s.showPrompt,
      embed_origins: toJson(s.embedOrigins),
      embed_daily_cap: s.embedDailyCap,
      ...(s.visibility === 'private' ? { share_hash: null } : {}),
      updated_at: now,
    })
    .where('id', '=', botId)
    .returningAll()
    .executeTakeFirstOrThrow();

export const setShareHash = (db: Executor, botId: number, hash: string) =>
  db.updateTable('bots').set({ share_hash: hash }).where('id', '=', botId).execute();

/** Everyone who got in through a link loses that right (a new link, or the bot's visibility changed). */
export const forgetGuests = (db: Executor, botId: number) =>
  db.deleteFrom('bot_guests').where('bot_id', '=', botId).execute();

/** Remembers that `userId` opened the bot's link: it lets them chat with a link bot and counts them as a user. */
export const recordGuest = (db: Executor, botId: number, userId: number, now: string) =>
  db
    .insertInto('bot_guests')
    .values({ bot_id: botId, user_id: userId, first_seen: now, last_seen: now })
    .onConflict((oc) => oc.columns(['bot_id', 'user_id']).doUpdateSet({ last_seen: now }))
    .execute();

/** Bots with their owner's display name. */
const botsWithOwner = (db: Executor) =>
  db
    .selectFrom('bots')
    .innerJoin('users', 'users.id', 'bots.user_id')
    .selectAll('bots')
    .select(['users.full_name as owner_full_name', 'users.username as owner_username'])
    .where('users.disabled_at', 'is', null);

export type SharedBotRow = Selectable<BotsTable> & { owner_full_name: string | null; owner_username: string };

/** Whether `userId` may chat with the bot: theirs, public, or a link bot whose link they opened. */
const usableBy = (userId: number) => (eb: ExpressionBuilder<Database, 'bots'>) =>
  eb.or([
    eb('bots.user_id', '=', userId),
    eb.and([
      ownerActive(eb),
      eb.or([
        eb('bots.visibility', '=', 'public'),
        eb.and([
          eb('bots.visibility', '=', 'link'),
          eb.exists(
            eb
              .selectFrom('bot_guests')
              .select('bot_guests.bot_id')
              .whereRef('bot_guests.bot_id', '=', 'bots.id')
              .where('bot_guests.user_id', '=', userId),
          ),
        ]),
      ]),
    ]),
  ]);

export const findUsableBot = (db: Executor, userId: number, botId: number) =>
  db.selectFrom('bots').selectAll().where('id', '=', botId).where(usableBy(userId)).executeTakeFirst();

/**
 * The caller's conversation (what a reply needs of it) with the bot to chat with: `botId`, or else the
 * conversation's own; the bot's columns are null when the caller may not use it, and there is no row when the
 * conversation is not theirs. One read, where a reply would wait for two round trips before its first token (three
 * with the owner's limit columns); chat adds the model's memory of the conversation to it on PostgreSQL.
 */
export const conversationWithBot = (
  db: Executor,
  v: { userId: number; conversationId: number },
  botId: number | 'its own',
) =>
  db
    .selectFrom('conversations')
    .leftJoin('bots', (join) =>
      (botId === 'its own' ? join.onRef('bots.id', '=', 'conversations.bot_id') : join.on('bots.id', '=', botId)).on(
        usableBy(v.userId),
      ),
    )
    // The bot owner's limit columns, which the limit check before the reply would otherwise read on its own.
    .leftJoin('users as owner', 'owner.id', 'bots.user_id')
    .select(REPLY_BOT_COLUMNS.map((column) => `bots.${column}` as const))
    .select([
      'owner.role as owner_role',
      'owner.daily_token_limit as owner_daily_token_limit',
      'owner.daily_reply_limit as owner_daily_reply_limit',
      'conversations.id as conversation_id',
      'conversations.bot_id as conversation_bot_id',
      'conversations.title_source as conversation_title_source',
    ])
    .where('conversations.id', '=', v.conversationId)
    .where('conversations.user_id', '=', v.userId);

const withOwnBot = preparedQuery((db, v: { userId: number; conversationId: number }) =>
  conversationWithBot(db, v, 'its own'),
);
const withOtherBot = preparedQuery((db, v: { userId: number; conversationId: number; botId: number }) =>
  conversationWithBot(db, v, v.botId),
);

export const findConversationWithUsableBot = async (
  db: Executor,
  userId: number,
  conversationId: number,
  botId: number | undefined,
) =>
  (botId === undefined
    ? await withOwnBot(db, { userId, conversationId })
    : await withOtherBot(db, { userId, conversationId, botId }))[0];
export type ConversationWithBotRow = NonNullable<Awaited<ReturnType<typeof findConversationWithUsableBot>>>;

export const findUsableBotWithOwner = (
  db: Executor,
  userId: number,
  botId: number,
): Promise<SharedBotRow | undefined> =>
  botsWithOwner(db).where('bots.id', '=', botId).where(usableBy(userId)).executeTakeFirst();

/** The bot whose link has this slug hash while it is shared (a private bot's link leads nowhere). */
export const findBotByShareHash = (db: Executor, hash: string): Promise<SharedBotRow | undefined> =>
  botsWithOwner(db).where('bots.share_hash', '=', hash).where('bots.visibility', '!=', 'private').executeTakeFirst();

/**
 * People other than the owner who use each bot: those who chatted with it in Botty (a message in a conversation of
 * theirs). Opening its link is not using it; widget visitors are anonymous and not counted.
 */
export async function countUsers(db: Executor, botIds: readonly number[]): Promise<Map<number, number>> {
  if (!botIds.length) return new Map();
  const users = db
    .selectFrom('conversations')
    .innerJoin('bots', 'bots.id', 'conversations.bot_id')
    .select(['conversations.bot_id', 'conversations.user_id'])
    .distinct()
    .where('conversations.bot_id', 'in', botIds)
    .where('conversations.channel', '=', 'app')
    .whereRef('conversations.user_id', '!=', 'bots.user_id')
    .where((eb) =>
      eb.exists(
        eb.selectFrom('messages').select('messages.id').whereRef('messages.conversation_id', '=', 'conversations.id'),
      ),
    );
  const rows = await db
    .selectFrom(users.as('u'))
    .select((eb) => ['u.bot_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('u.bot_id')
    .execute();
  return new Map(rows.map((r) => [r.bot_id, Number(r.n)]));
}

export interface ExploreFilter {
  /** Lower-case words, each of which must appear in the name or description. */
  words: string[];
  purpose?: string;
  cursor: { updatedAt: string; id: number } | null;
  limit: number;
}

/** Active public bots, most recently changed first. */
export function findPublicBots(db: Executor, f: ExploreFilter): Promise<SharedBotRow[]> {
  let query = botsWithOwner(db).where('bots.visibility', '=', 'public').where('bots.active', '=', true);
  if (f.purpose) query = query.where('bots.purpose', '=', f.purpose);
  for (const word of f.words) {
    const pattern = likePattern(word);
    query = query.where(
      sql<boolean>`(lower(bots.name) like ${pattern} escape '\\' or lower(bots.description) like ${pattern} escape '\\')`,
    );
  }
  const { cursor } = f;
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('bots.updated_at', '<', cursor.updatedAt),
        eb.and([eb('bots.updated_at', '=', cursor.updatedAt), eb('bots.id', '<', cursor.id)]),
      ]),
    );
  }
  return query.orderBy('bots.updated_at', 'desc').orderBy('bots.id', 'desc').limit(f.limit).execute();
}
