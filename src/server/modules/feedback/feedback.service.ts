import { TEST_QUERY_MAX } from '@shared/constants';
import type {
  Feedback,
  FeedbackBody,
  FeedbackEntry,
  FeedbackLog,
  FeedbackLogQuery,
  FeedbackSurface,
} from '@shared/contracts/feedback';
import { FEEDBACK_LOG_PAGE, FEEDBACK_MESSAGES } from '@shared/contracts/feedback';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireOwnedBot } from '../bots/bots.service';
import { requireConversation } from '../chat/conversations.service';
import { readTestSet } from '../test-cases/test-set';
import { findRatedReplies, REPLY_EXCERPT } from './feedback-log.repository';
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

/** Where a listed reply was written, from what its row says (see FEEDBACK_SURFACES). */
function surfaceOf(row: { channel: string; by_owner: unknown; by_guest: unknown }): FeedbackSurface {
  if (row.channel === 'widget') return 'widget';
  if (truthy(row.by_owner)) return 'owner';
  return truthy(row.by_guest) ? 'link' : 'explore';
}

/** SQLite answers conditions as 0/1, PostgreSQL as booleans. */
const truthy = (value: unknown) => value === true || value === 1 || value === '1';

const excerpt = (text: string) => (text.length > REPLY_EXCERPT ? `${text.slice(0, REPLY_EXCERPT - 1)}…` : text);

/**
 * The owner's feedback log: the rated replies of one of their bots, whoever rated them, newest first, each with
 * the question it answered and whether that question is a test already. Another user's bot is 404.
 */
export async function feedbackLog(
  deps: FeedbackDeps,
  userId: number,
  botId: number,
  filter: FeedbackLogQuery,
): Promise<FeedbackLog> {
  const db = deps.db.kysely;
  await requireOwnedBot(db, userId, botId);
  const rows = await findRatedReplies(db, userId, botId, filter, FEEDBACK_LOG_PAGE);
  const page = rows.slice(0, FEEDBACK_LOG_PAGE);
  const tests = new Map((await readTestSet(db, botId)).map((test) => [test.query, test.id]));
  const entries = page.map((row): FeedbackEntry => {
    const question = row.question?.trim() ?? '';
    return {
      messageId: row.id,
      conversationId: row.conversation_id,
      rating: row.rating!,
      comment: row.rating_comment,
      question,
      reply: excerpt(row.reply),
      botVersion: row.bot_version,
      surface: surfaceOf(row),
      ratedAt: row.rated_at ?? '',
      testCaseId: tests.get(question.slice(0, TEST_QUERY_MAX)) ?? null,
    };
  });
  const more = rows.length > FEEDBACK_LOG_PAGE;
  return { entries, nextCursor: more ? String(page.at(-1)!.id) : null };
}
