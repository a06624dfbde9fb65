import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database';

export const findConversationDates = (db: Executor, botId: number, since: string) =>
  db
    .selectFrom('conversations')
    .select('created_at')
    .where('bot_id', '=', botId)
    .where('created_at', '>=', since)
    .execute();

/** Every message of the bot's conversations since `since`, with what insights read of it. */
export const findMessageFacts = (db: Executor, botId: number, since: string) =>
  db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select([
      'messages.role',
      'messages.status',
      'messages.created_at',
      'messages.first_token_ms',
      'messages.reply_ms',
      'messages.input_tokens',
      'messages.output_tokens',
      'messages.rating',
    ])
    .where('conversations.bot_id', '=', botId)
    .where('messages.created_at', '>=', since)
    .execute();

/**
 * The average faithfulness of the bot's replies since `since` that were checked against their sources and had
 * something to check, read from the stored check in SQL (not its sentences).
 */
export async function findFaithfulness(db: Db, botId: number, since: string) {
  const field = (name: string) =>
    db.kind === 'sqlite'
      ? sql<number>`json_extract(messages.support, ${`$.${name}`})`
      : sql<number>`(messages.support->>${name})::float8`;
  const row = await db.kysely
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select([
      sql<number | string | null>`avg(${field('faithfulness')})`.as('average'),
      (e) => e.fn.countAll().as('replies'),
    ])
    .where('conversations.bot_id', '=', botId)
    .where('messages.created_at', '>=', since)
    .where('messages.support', 'is not', null)
    .where(field('checked'), '>', 0)
    .executeTakeFirst();
  const replies = Number(row?.replies ?? 0);
  return replies && row?.average != null ? { average: Number(row.average), replies } : null;
}
