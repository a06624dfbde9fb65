import { z } from 'zod';
import { idParamSchema } from './common';

export const EVALUATION_MESSAGES = {
  offline: 'No language model is connected, so evaluations cannot run.',
  noTestSet: 'Add example queries to the test set before running an evaluation.',
  running: 'An evaluation of this botty is already running.',
  notFound: 'Evaluation not found',
  version: 'Version must be a positive whole number',
} as const;

export const runEvaluationBodySchema = z.object({
  /** The version to evaluate; the current one when left out. */
  version: z
    .number({ error: EVALUATION_MESSAGES.version })
    .int(EVALUATION_MESSAGES.version)
    .positive(EVALUATION_MESSAGES.version)
    .optional(),
});
export type RunEvaluationBody = z.infer<typeof runEvaluationBodySchema>;

export const VERDICTS = ['pass', 'fail'] as const;

export const evaluationResultSchema = z.object({
  index: z.number().int(),
  query: z.string(),
  answer: z.string().nullable(),
  verdict: z.enum(VERDICTS).nullable(),
  reason: z.string().nullable(),
  /** Why the query got no answer or no verdict. */
  error: z.string().nullable(),
});
export type EvaluationResult = z.infer<typeof evaluationResultSchema>;

export const evaluationSummarySchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  version: z.number().int(),
  status: z.enum(['running', 'done', 'cancelled', 'interrupted']),
  total: z.number().int(),
  passed: z.number().int(),
  createdAt: z.string(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationSchema = evaluationSummarySchema.extend({ results: z.array(evaluationResultSchema) });
export type Evaluation = z.infer<typeof evaluationSchema>;

export const evaluationParamsSchema = z.object({ id: idParamSchema, evaluationId: idParamSchema });

/** One line of the evaluation stream: `started`, then a `result` per query in order, then `done`. */
export const evaluationEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), evaluation: evaluationSummarySchema }),
  z.object({ type: z.literal('result'), result: evaluationResultSchema }),
  z.object({ type: z.literal('done'), evaluation: evaluationSummarySchema }),
]);
export type EvaluationEvent = z.infer<typeof evaluationEventSchema>;
