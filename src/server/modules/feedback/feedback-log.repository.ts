import { sql, type ExpressionBuilder } from 'kysely';
import type { FeedbackLogQuery, FeedbackSurface } from '@shared/contracts/feedback';
import type { Database, Executor } from '../../db/database';

/** How much of a reply the log shows. */
export const REPLY_EXCERPT = 300;

type Scope = ExpressionBuilder<Database, 'messages' | 'conversations' | 'bots'>;

const byOwner = (eb: Scope) => eb('conversations.user_id', '=', eb.ref('bots.user_id'));
const openedByLink = (eb: Scope) =>
  eb.exists(
    eb
      .selectFrom('bot_guests')
      .select('bot_guests.bot_id')
      .whereRef('bot_guests.bot_id', '=', 'bots.id')
      .whereRef('bot_guests.user_id', '=', 'conversations.user_id'),
  );

/** Where a reply was written, read from its conversation (contracts/feedback.ts FEEDBACK_SURFACES). */
function onSurface(eb: Scope, surface: FeedbackSurface) {
  const app = eb('conversations.channel', '=', 'app');
  switch (surface) {
    case 'widget':
      return eb('conversations.channel', '=', 'widget');
    case 'owner':
      return eb.and([app, byOwner(eb)]);
    case 'link':
      return eb.and([app, eb.not(byOwner(eb)), openedByLink(eb)]);
    case 'explore':
      return eb.and([app, eb.not(byOwner(eb)), eb.not(openedByLink(eb))]);
    case 'api':
      // /v1 and /mcp keep no conversations, so no reply of theirs is ever rated.
      return sql<boolean>`1 = 0`;
  }
}

/**
 * One page of the rated replies of a bot (the caller's: `ownerId`), newest first, before the `cursor` message
 * id; one row more than `limit`, which tells there is a next page.
 */
export function findRatedReplies(
  db: Executor,
  ownerId: number,
  botId: number,
  filter: FeedbackLogQuery,
  limit: number,
) {
  return db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .innerJoin('bots', 'bots.id', 'conversations.bot_id')
    .select((eb) => [
      'messages.id',
      'messages.conversation_id',
      'messages.rating',
      'messages.rating_comment',
      'messages.bot_version',
      'messages.rated_at',
      'conversations.channel',
      byOwner(eb).as('by_owner'),
      openedByLink(eb).as('by_guest'),
      sql<string>`substr(${eb.ref('messages.content')}, 1, ${sql.lit(REPLY_EXCERPT + 1)})`.as('reply'),
      // The message the reply answered: its parent on the branch, else (older replies) the last question before.
      eb.fn
        .coalesce(
          eb
            .selectFrom('messages as asked')
            .select('asked.content')
            .whereRef('asked.id', '=', 'messages.parent_id')
            .where('asked.role', '=', 'user'),
          eb
            .selectFrom('messages as asked')
            .select('asked.content')
            .whereRef('asked.conversation_id', '=', 'messages.conversation_id')
            .whereRef('asked.id', '<', 'messages.id')
            .where('asked.role', '=', 'user')
            .orderBy('asked.id', 'desc')
            .limit(1),
        )
        .as('question'),
    ])
    .where('bots.id', '=', botId)
    .where('bots.user_id', '=', ownerId)
    .where('messages.role', '=', 'assistant')
    .where('messages.rating', 'is not', null)
    .$if(filter.rating !== undefined, (q) => q.where('messages.rating', '=', filter.rating!))
    .$if(filter.version !== undefined, (q) => q.where('messages.bot_version', '=', filter.version!))
    .$if(filter.surface !== undefined, (q) => q.where((eb) => onSurface(eb, filter.surface!)))
    .$if(filter.cursor !== undefined, (q) => q.where('messages.id', '<', filter.cursor!))
    .orderBy('messages.id', 'desc')
    .limit(limit + 1)
    .execute();
}
