import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

/** The visitor's widget conversation with the bot, the latest when a race made two. */
export const findVisitorConversation = (db: Executor, botId: number, visitorHash: string) =>
  db
    .selectFrom('conversations')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('channel', '=', 'widget')
    .where('visitor_hash', '=', visitorHash)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const insertVisitorConversation = (
  db: Executor,
  c: { botId: number; ownerId: number; visitorHash: string; title: string },
  now: string,
) =>
  db
    .insertInto('conversations')
    .values({
      bot_id: c.botId,
      user_id: c.ownerId,
      title: c.title,
      channel: 'widget',
      visitor_hash: c.visitorHash,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Questions asked through the bot's widget since `since`: what its daily cap counts. */
export async function countWidgetQuestionsSince(db: Executor, botId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('c.bot_id', '=', botId)
    .where('c.channel', '=', 'widget')
    .where('m.role', '=', 'user')
    .where('m.created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The bot's widget conversations that have a message, most recently active first, with their message counts. */
export const findWidgetConversations = (db: Executor, botId: number, limit: number) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('messages as m', 'm.conversation_id', 'c.id')
    .select((eb) => ['c.id', 'c.title', 'c.created_at', 'c.updated_at', eb.fn.countAll().as('message_count')])
    .where('c.bot_id', '=', botId)
    .where('c.channel', '=', 'widget')
    .where('m.active', '=', true)
    .groupBy(['c.id', 'c.title', 'c.created_at', 'c.updated_at'])
    .orderBy('c.updated_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute();

export const findWidgetConversation = (db: Executor, botId: number, conversationId: number) =>
  db
    .selectFrom('conversations')
    .select('id')
    .where('id', '=', conversationId)
    .where('bot_id', '=', botId)
    .where('channel', '=', 'widget')
    .executeTakeFirst();

/** The widget's appearance as stored (parsed, not yet checked), or undefined when the bot does not exist. */
export async function findWidgetAppearance(db: Executor, botId: number): Promise<unknown> {
  const row = await db.selectFrom('bots').select('embed_appearance').where('id', '=', botId).executeTakeFirst();
  return row && fromJson(row.embed_appearance);
}

/** Not a change of the bot's prompt or settings: its updated_at (Explore's order) stays. */
export const saveWidgetAppearance = (db: Executor, botId: number, appearance: object) =>
  db
    .updateTable('bots')
    .set({ embed_appearance: toJson(appearance) })
    .where('id', '=', botId)
    .execute();
