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
