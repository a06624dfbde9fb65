import { z } from 'zod';
import { createBotBodySchema, exampleQueriesSchema } from './bots';
import { sourceSchema } from './chat';
import { bodyIdSchema } from './common';

export const TRAINING_MESSAGES = {
  offline: 'No language model is connected, so test queries cannot be answered.',
  noQueries: 'Add at least one test query',
} as const;

/**
 * The wizard's draft and the test queries it should answer; `botId` when the draft edits that bot (its knowledge
 * files are then read as the chat reads them).
 */
export const previewAnswersBodySchema = z.object({
  bot: createBotBodySchema.pick({ name: true, description: true, purpose: true, capabilities: true, config: true }),
  botId: bodyIdSchema('Bot id must be a positive whole number').optional(),
  queries: exampleQueriesSchema.refine((list) => list.length > 0, TRAINING_MESSAGES.noQueries),
});
export type PreviewAnswersBody = z.infer<typeof previewAnswersBodySchema>;
export type PreviewAnswersRequest = z.input<typeof previewAnswersBodySchema>;

/**
 * One line of the preview stream, in the order of the queries: an answer, or why a query got none; `done` last,
 * with how many were answered.
 */
export const previewEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('answer'),
    index: z.number().int(),
    query: z.string(),
    answer: z.string(),
    /** The numbered sources the answer was given (knowledge passages, web pages), as a chat reply lists them. */
    sources: z.array(sourceSchema).default([]),
  }),
  z.object({ type: z.literal('failed'), index: z.number().int(), query: z.string(), message: z.string() }),
  z.object({ type: z.literal('done'), answered: z.number().int() }),
]);
export type PreviewEvent = z.infer<typeof previewEventSchema>;
