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
