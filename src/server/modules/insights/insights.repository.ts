import type { Executor } from '../../db/database';

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
 * The bot's finished test runs, newest first, with how many of their queries passed (PostgreSQL counts as
 * bigint, which its driver hands back as text).
 */
export const findFinishedEvaluations = (db: Executor, botId: number) =>
  db
    .selectFrom('evaluations')
    .select(['bot_version', 'total', 'created_at'])
    .select((eb) =>
      eb
        .selectFrom('evaluation_results')
        .select((r) => r.fn.countAll().as('n'))
        .whereRef('evaluation_results.evaluation_id', '=', 'evaluations.id')
        .where('verdict', '=', 'pass')
        .as('passed'),
    )
    .where('bot_id', '=', botId)
    .where('status', '=', 'done')
    .orderBy('id', 'desc')
    .execute();
