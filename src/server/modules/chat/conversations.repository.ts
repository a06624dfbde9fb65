import { sql, type QueryCreator, type Selectable } from 'kysely';
import type { Conversation, ConversationSummary, TitleSource } from '@shared/contracts/chat';
import type { ConversationsTable, Database, Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';

export type ConversationRow = Selectable<ConversationsTable>;

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    botId: row.bot_id,
    userId: row.user_id,
    title: row.title,
    titleSource: row.title_source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The conversation only when it belongs to `userId`; someone else's is indistinguishable from a missing one. */
export const findOwnedConversation = (db: Executor, userId: number, conversationId: number) =>
  db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** Most recently active first. Widget conversations are the owner's too, but read on the bot's page, not here. */
export const findConversationsOfBot = (db: Executor, userId: number, botId: number) =>
  db
    .selectFrom('conversations')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('user_id', '=', userId)
    .where('channel', '=', 'app')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The bot's most recently active conversation when it has no message yet, to be reused rather than piled up. */
export const findEmptyLatestConversation = async (db: Executor, userId: number, botId: number) => {
  const latest = await db
    .selectFrom('conversations')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('user_id', '=', userId)
    .where('channel', '=', 'app')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return undefined;
  const message = await db
    .selectFrom('messages')
    .select('id')
    .where('conversation_id', '=', latest.id)
    .limit(1)
    .executeTakeFirst();
  return message ? undefined : latest;
};

export const insertConversation = (
  db: Executor,
  c: { botId: number; userId: number; title: string; titleSource: TitleSource },
  now: string,
) =>
  db
    .insertInto('conversations')
    .values({
      bot_id: c.botId,
      user_id: c.userId,
      title: c.title,
      title_source: c.titleSource,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Leaves updated_at alone: it records the last message, which orders the list, and a rename is not one. */
export const updateConversationTitle = (db: Executor, conversationId: number, title: string, source: TitleSource) =>
  db
    .updateTable('conversations')
    .set({ title, title_source: source })
    .where('id', '=', conversationId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Names the conversation after its subject unless it was named already (by the user, or an earlier reply). */
export const setAutomaticTitle = (db: Executor, conversationId: number, title: string) =>
  db
    .updateTable('conversations')
    .set({ title, title_source: 'auto' })
    .where('id', '=', conversationId)
    .where('title_source', '=', 'default')
    .executeTakeFirst();

/** Position in the History list: the last row's `updated_at` and id. */
export interface ConversationCursor {
  updatedAt: string;
  id: number;
}

const summaryColumns = [
  'c.id',
  'c.bot_id',
  'c.user_id',
  'c.title',
  'c.title_source',
  'c.channel',
  'c.visitor_hash',
  'c.created_at',
  'c.updated_at',
  'b.name as bot_name',
  'b.icon as bot_icon',
] as const;

type SummaryRow = ConversationRow & { bot_name: string; bot_icon: string };

export const toConversationSummary = (row: SummaryRow): ConversationSummary => ({
  ...toConversation(row),
  bot: { id: row.bot_id, name: row.bot_name, icon: row.bot_icon },
});

/**
 * The user's conversations that have a message, across bots, most recently active first, after `cursor`; not
 * their bots' widget conversations, which are the visitors' chats.
 */
export async function findConversationPage(
  db: Executor,
  userId: number,
  cursor: ConversationCursor | null,
  limit: number,
): Promise<SummaryRow[]> {
  let query = db
    .selectFrom('conversations as c')
    .innerJoin('bots as b', 'b.id', 'c.bot_id')
    .select(summaryColumns)
    .where('c.user_id', '=', userId)
    .where('c.channel', '=', 'app')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('messages as m').select('m.id').whereRef('m.conversation_id', '=', 'c.id')),
    );
  if (cursor) {
    query = query.where(({ eb, or, and }) =>
      or([
        eb('c.updated_at', '<', cursor.updatedAt),
        and([eb('c.updated_at', '=', cursor.updatedAt), eb('c.id', '<', cursor.id)]),
      ]),
    );
  }
  return query.orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute();
}

/** The conversation with its bot only when it belongs to `userId`, as findOwnedConversation. */
export const findOwnedConversationSummary = (db: Executor, userId: number, conversationId: number) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('bots as b', 'b.id', 'c.bot_id')
    .select(summaryColumns)
    .where('c.id', '=', conversationId)
    .where('c.user_id', '=', userId)
    .executeTakeFirst();

/** The user's conversations among `ids`, with their bots (widget conversations left out, as in the list). */
export const findConversationSummaries = (db: Executor, userId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('conversations as c')
        .innerJoin('bots as b', 'b.id', 'c.bot_id')
        .select(summaryColumns)
        .where('c.user_id', '=', userId)
        .where('c.channel', '=', 'app')
        .where('c.id', 'in', ids)
        .execute();

/** Whether the user, the bot and the conversation of a reply still exist, to say which one went away. */
export async function findReplyOwners(db: Executor, r: { userId: number; botId: number; conversationId: number }) {
  const row = await sql<{ user: number; bot: number; conversation: number }>`select
    (select count(*) from users where id = ${r.userId}) as ${sql.ref('user')},
    (select count(*) from bots where id = ${r.botId}) as bot,
    (select count(*) from conversations where id = ${r.conversationId}) as conversation`.execute(db);
  const counts = row.rows[0];
  return {
    user: Number(counts?.user) > 0,
    bot: Number(counts?.bot) > 0,
    conversation: Number(counts?.conversation) > 0,
  };
}

/** Marks the conversation active at `now`; as a query, so PostgreSQL can run it inside another statement. */
export const touchConversationQuery = (db: QueryCreator<Database>, conversationId: number, now: string) =>
  db.updateTable('conversations').set({ updated_at: now }).where('id', '=', conversationId);

const touch = preparedQuery((db, v: { conversationId: number; now: string }) =>
  touchConversationQuery(db, v.conversationId, v.now),
);

export const touchConversation = (db: Executor, conversationId: number, now: string) =>
  touch(db, { conversationId, now });

/** Explicit rather than relying on the cascade, as in deleteBotWithConversations. */
export async function deleteConversationWithMessages(db: Executor, conversationId: number) {
  await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
  await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
}
