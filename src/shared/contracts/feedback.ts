import { z } from 'zod';
import { FEEDBACK_COMMENT_MAX } from '../constants';

export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

export const FEEDBACK_MESSAGES = {
  rating: "Rating must be 'up', 'down' or null",
  notReply: 'Only replies can be rated',
  notFound: 'Message not found',
} as const;

/** A thumbs up or down on a reply, with an optional comment; a null rating removes it (and its comment). */
export const feedbackBodySchema = z.object({
  rating: z.enum(FEEDBACK_RATINGS, { error: FEEDBACK_MESSAGES.rating }).nullable(),
  comment: z
    .string({ error: 'Comment must be text' })
    .trim()
    .max(FEEDBACK_COMMENT_MAX, `Comment must be at most ${FEEDBACK_COMMENT_MAX} characters`)
    .optional(),
});
export type FeedbackBody = z.infer<typeof feedbackBodySchema>;

export const feedbackSchema = z.object({
  messageId: z.number().int(),
  rating: z.enum(FEEDBACK_RATINGS).nullable(),
  comment: z.string().nullable(),
  /** The bot's version that wrote the reply; null for replies written before versions existed. */
  botVersion: z.number().int().nullable(),
  ratedAt: z.string().nullable(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

/**
 * Where a rated reply was written. Derived from its conversation (decision 0041): `widget` for widget
 * conversations; `owner` when the bot's owner chatted; `link` when someone who opened the bot's link did; else
 * `explore`. `/v1` and `/mcp` keep no conversations, so `api` replies are never rated and never listed.
 */
export const FEEDBACK_SURFACES = ['owner', 'link', 'explore', 'widget', 'api'] as const;
export type FeedbackSurface = (typeof FEEDBACK_SURFACES)[number];

export const FEEDBACK_LOG_PAGE = 25;

/** An empty query parameter (`?version=`) means no filter, as leaving it out does. */
const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const VERSION_MESSAGE = 'Version must be a whole number';

/** GET /api/bots/{id}/feedback: filters, and `cursor` from the page before (`nextCursor`). */
export const feedbackLogQuerySchema = z.object({
  rating: optionalParam(z.enum(FEEDBACK_RATINGS, { error: "Rating must be 'up' or 'down'" })),
  version: optionalParam(
    z.coerce
      .number({ error: VERSION_MESSAGE })
      .int(VERSION_MESSAGE)
      .min(1, VERSION_MESSAGE)
      .max(2_147_483_647, VERSION_MESSAGE),
  ),
  surface: optionalParam(
    z.enum(FEEDBACK_SURFACES, { error: `Surface must be one of: ${FEEDBACK_SURFACES.join(', ')}` }),
  ),
  cursor: optionalParam(
    z
      .string()
      .regex(/^\d{1,10}$/, 'Cursor is not one this list gave out')
      .transform(Number),
  ),
});
export type FeedbackLogQuery = z.infer<typeof feedbackLogQuerySchema>;

export const feedbackEntrySchema = z.object({
  messageId: z.number().int(),
  conversationId: z.number().int(),
  rating: z.enum(FEEDBACK_RATINGS),
  comment: z.string().nullable(),
  /** The user's message the reply answered (empty when there was none). */
  question: z.string(),
  /** The reply's first few hundred characters. */
  reply: z.string(),
  botVersion: z.number().int().nullable(),
  surface: z.enum(FEEDBACK_SURFACES),
  ratedAt: z.string(),
  /** The test case with this question, when the question is a test already. */
  testCaseId: z.number().int().nullable(),
});
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;

/** Newest reply first; pass `nextCursor` back as `cursor` for older ones (null at the end). */
export const feedbackLogSchema = z.object({
  entries: z.array(feedbackEntrySchema),
  nextCursor: z.string().nullable(),
});
export type FeedbackLog = z.infer<typeof feedbackLogSchema>;
