import { z } from 'zod';
import { idParamSchema } from './common';

export const EVALUATION_MESSAGES = {
  offline: 'No language model is connected, so evaluations cannot run.',
  noTestSet: 'Add test cases on the Tests page before running an evaluation.',
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

/** `judge_unavailable`: the answer was given but the judge could not say; neither pass nor fail, never counted. */
export const VERDICTS = ['pass', 'fail', 'judge_unavailable'] as const;
export type VerdictKind = (typeof VERDICTS)[number];

export const evaluationResultSchema = z.object({
  index: z.number().int(),
  /** The test case asked (null in runs from before test cases had ids). */
  testCaseId: z.number().int().nullable(),
  query: z.string(),
  answer: z.string().nullable(),
  verdict: z.enum(VERDICTS).nullable(),
  /** The judge's 1–5 grade of the answer, when it gave one. */
  score: z.number().int().min(1).max(5).nullable(),
  reason: z.string().nullable(),
  /** Why the query got no answer or no verdict. */
  error: z.string().nullable(),
  /**
   * Share of the answer's checkable sentences its sources support, 0–1 (decision 0044); null when it had no sources,
   * stated nothing checkable, or the check could not run. Not a verdict: the pass rate and the gate never read it.
   */
  faithfulness: z.number().min(0).max(1).nullable(),
});
export type EvaluationResult = z.infer<typeof evaluationResultSchema>;

/**
 * `queued` until an instance claims it, `running`, then `done`, `cancelled` or `failed` (it could not run at all).
 * `interrupted`: a run from before evaluations were jobs, whose page was closed.
 */
export const EVALUATION_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed', 'interrupted'] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export const isEvaluationActive = (status: EvaluationStatus) => status === 'queued' || status === 'running';

export const evaluationSummarySchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  version: z.number().int(),
  status: z.enum(EVALUATION_STATUSES),
  total: z.number().int(),
  /** Questions answered so far (with or without a verdict): the progress of a running one. */
  completed: z.number().int(),
  passed: z.number().int(),
  /** Answers the judge could not grade: left out of the pass rate. */
  judgeUnavailable: z.number().int(),
  /** The average faithfulness of the answers that had sources, 0–1; null when none had. */
  faithfulness: z.number().min(0).max(1).nullable(),
  createdAt: z.string(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationSchema = evaluationSummarySchema.extend({ results: z.array(evaluationResultSchema) });
export type Evaluation = z.infer<typeof evaluationSchema>;

export const evaluationParamsSchema = z.object({ id: idParamSchema, evaluationId: idParamSchema });

export const compareEvaluationsQuerySchema = z.object({ before: idParamSchema, after: idParamSchema });

/**
 * How a question fared from one run to the next: `better` (fail → pass, or the same verdict scored higher),
 * `worse` (the same verdict scored lower), `regression` (pass → fail), `same`, `new` (not asked before), and
 * `not_compared` (the judge was unavailable, or no answer, on either side).
 */
export const QUESTION_CHANGES = ['better', 'worse', 'regression', 'same', 'new', 'not_compared'] as const;
export type QuestionChange = (typeof QUESTION_CHANGES)[number];

export const comparedQuestionSchema = z.object({
  query: z.string(),
  before: evaluationResultSchema.nullable(),
  after: evaluationResultSchema,
  change: z.enum(QUESTION_CHANGES),
});
export type ComparedQuestion = z.infer<typeof comparedQuestionSchema>;

export const evaluationComparisonSchema = z.object({
  before: evaluationSummarySchema,
  after: evaluationSummarySchema,
  questions: z.array(comparedQuestionSchema),
  totals: z.record(z.enum(QUESTION_CHANGES), z.number().int()),
  /** Passed of the graded answers (judge unavailable left out), 0–1; null with nothing graded. */
  passRate: z.object({ before: z.number().nullable(), after: z.number().nullable() }),
  /** "Version 5 vs version 4: 3 better, 1 worse, 1 regression". */
  verdict: z.string(),
});
export type EvaluationComparison = z.infer<typeof evaluationComparisonSchema>;

/**
 * One line of an evaluation's events: `started` (as it is now), a `result` per query in order (those stored
 * already first), then `done` once it ended (done, cancelled or failed).
 */
export const evaluationEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), evaluation: evaluationSummarySchema }),
  z.object({ type: z.literal('result'), result: evaluationResultSchema }),
  z.object({ type: z.literal('done'), evaluation: evaluationSummarySchema }),
]);
export type EvaluationEvent = z.infer<typeof evaluationEventSchema>;
