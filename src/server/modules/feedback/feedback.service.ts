import type { Feedback, FeedbackBody } from '@shared/contracts/feedback';
import { FEEDBACK_MESSAGES } from '@shared/contracts/feedback';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireConversation } from '../chat/conversations.service';
import { findConversationRatings, findOwnedMessage, setRating, toFeedback } from './feedback.repository';

export interface FeedbackDeps {
  db: Db;
  clock: Clock;
}

/**
 * Rates a reply (or changes or removes its rating). The reply already records the bot version that wrote
 * it, so the rating is tied to that version. Someone else's message is a 404, like a missing one.
 */
export async function rateMessage(
  deps: FeedbackDeps,
  userId: number,
  messageId: number,
  body: FeedbackBody,
): Promise<Feedback> {
  const db = deps.db.kysely;
  const message = await findOwnedMessage(db, userId, messageId);
  if (!message) throw new AppError('NOT_FOUND', FEEDBACK_MESSAGES.notFound);
  if (message.role !== 'assistant') throw new AppError('BAD_REQUEST', FEEDBACK_MESSAGES.notReply);
  const rated = body.rating !== null;
  const row = await setRating(db, messageId, {
    rating: body.rating,
    comment: rated ? body.comment || null : null,
    at: rated ? isoNow(deps.clock) : null,
  });
  return toFeedback(row);
}

/** The ratings in one of the caller's conversations, so a chat can show them. */
export async function conversationRatings(deps: FeedbackDeps, userId: number, conversationId: number) {
  const db = deps.db.kysely;
  await requireConversation(db, userId, conversationId);
  return (await findConversationRatings(db, conversationId)).map(toFeedback);
}
