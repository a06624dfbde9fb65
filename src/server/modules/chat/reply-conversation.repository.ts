import { sql } from 'kysely';
import { CONTEXT_WINDOW_DEFAULT } from '@shared/constants';
import type { Db, Executor } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';
import {
  conversationWithBot,
  findConversationWithUsableBot,
  type ConversationWithBotRow,
} from '../bots/sharing.repository';
import type { ContextRow } from './messages.repository';

/**
 * contextWindowOf (compose-prompt.ts) of the bot's config, in SQL, and at least 1: the branch's last message is
 * the new message's parent even when the bot has no memory.
 */
const windowOfBot = sql<number>`greatest(1, case when c.config -> 'conversationMemory' = 'false'::jsonb then 0
  else coalesce((c.config ->> 'maxContextMessages')::integer, ${sql.lit(CONTEXT_WINDOW_DEFAULT)}) end)`;

/** What findLastMessages reads for the new message: the active branch's last messages, newest first. */
const memory = sql<ContextRow[]>`(select coalesce(json_agg(json_build_object('id', m.id, 'role', m.role,
    'content', m.content, 'status', m.status) order by m.id desc), '[]'::json)
  from (select id, role, content, status from messages where conversation_id = c.conversation_id and active
    order by id desc limit ${windowOfBot}) m)`;

const withMemory = (db: Executor, v: { userId: number; conversationId: number }, botId: number | 'its own') =>
  db
    .selectFrom(conversationWithBot(db, v, botId).as('c'))
    .selectAll('c')
    .select(memory.as('recent'));

const ownBotWithMemory = preparedQuery((db, v: { userId: number; conversationId: number }) =>
  withMemory(db, v, 'its own'),
);
const otherBotWithMemory = preparedQuery((db, v: { userId: number; conversationId: number; botId: number }) =>
  withMemory(db, v, v.botId),
);

/**
 * The caller's conversation with the bot that would answer (findConversationWithUsableBot: its `id` is null when
 * the caller may not use it), and on PostgreSQL the model's memory of the conversation (`recent`, as
 * findLastMessages answers it for a new message) in the same statement: the reply's first token waits for one
 * round trip less. It is read before the conversation's reply lock is taken (which must not be taken for
 * someone else's conversation), so a reply still being written when it was read makes it stale: the caller
 * reads again then. Null when the conversation is not the caller's.
 */
export async function findReplyConversation(
  db: Db,
  userId: number,
  conversationId: number,
  botId?: number,
): Promise<{ row: ConversationWithBotRow; recent?: ContextRow[] } | null> {
  if (db.kind !== 'postgres') {
    const row = await findConversationWithUsableBot(db.kysely, userId, conversationId, botId);
    return row ? { row } : null;
  }
  const [found] =
    botId === undefined
      ? await ownBotWithMemory(db.kysely, { userId, conversationId })
      : await otherBotWithMemory(db.kysely, { userId, conversationId, botId });
  if (!found) return null;
  const { recent, ...row } = found;
  return { row, recent };
}
