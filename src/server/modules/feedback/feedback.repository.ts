import type { Feedback, FeedbackRating } from '@shared/contracts/feedback';
import type { Executor } from '../../db/database';

const columns = ['messages.id', 'messages.role', 'rating', 'rating_comment', 'bot_version', 'rated_at'] as const;

type FeedbackRow = {
  id: number;
  rating: FeedbackRating | null;
  rating_comment: string | null;
  bot_version: number | null;
  rated_at: string | null;
};

export const toFeedback = (row: FeedbackRow): Feedback => ({
  messageId: row.id,
  rating: row.rating,
  comment: row.rating_comment,
  botVersion: row.bot_version,
  ratedAt: row.rated_at,
});

/** The message with its rating, only when it is in one of `userId`'s conversations. */
export const findOwnedMessage = (db: Executor, userId: number, messageId: number) =>
  db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select(columns)
    .where('messages.id', '=', messageId)
    .where('conversations.user_id', '=', userId)
    .executeTakeFirst();

export interface NewRating {
  rating: FeedbackRating | null;
  comment: string | null;
  at: string | null;
}

export const setRating = (db: Executor, messageId: number, r: NewRating) =>
  db
    .updateTable('messages')
    .set({ rating: r.rating, rating_comment: r.comment, rated_at: r.at })
    .where('id', '=', messageId)
    .returning(columns)
    .executeTakeFirstOrThrow();

export const findConversationRatings = (db: Executor, conversationId: number) =>
  db
    .selectFrom('messages')
    .select(columns)
    .where('conversation_id', '=', conversationId)
    .where('rating', 'is not', null)
    .orderBy('messages.id')
    .execute();
