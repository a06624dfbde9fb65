import { z } from 'zod';
import { boundedText, idParamSchema } from './common';

export const RELEASE_REASON_MAX = 1000;

export const RELEASE_MESSAGES = {
  version: 'Version must be a positive whole number',
  reason: 'Say why you publish anyway',
  checking: 'A release of this botty is already being checked.',
  notFound: 'Release not found',
  versionNotFound: 'Version not found',
  alreadyPublished: 'This version is already the published one.',
  neverPublished: 'Only a version that was published before can be published again without its tests.',
  minPassRate: 'Minimum pass rate must be a number from 0 to 1, or null for the published version’s',
  maxRegressions: 'Maximum regressions must be a whole number from 0 to 1000',
} as const;

export const RELEASE_STATUSES = ['checking', 'published', 'blocked', 'failed'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/**
 * What a release must hold to be published. `minPassRate` null: not lower than the published version's (the
 * first release: any). Defaults: `{ minPassRate: null, maxRegressions: 0 }`.
 */
export const releaseGateSchema = z.object({
  minPassRate: z
    .number({ error: RELEASE_MESSAGES.minPassRate })
    .min(0, RELEASE_MESSAGES.minPassRate)
    .max(1, RELEASE_MESSAGES.minPassRate)
    .nullable(),
  maxRegressions: z
    .number({ error: RELEASE_MESSAGES.maxRegressions })
    .int(RELEASE_MESSAGES.maxRegressions)
    .min(0, RELEASE_MESSAGES.maxRegressions)
    .max(1000, RELEASE_MESSAGES.maxRegressions),
});
export type ReleaseGate = z.infer<typeof releaseGateSchema>;
export const DEFAULT_RELEASE_GATE: ReleaseGate = { minPassRate: null, maxRegressions: 0 };

export const createReleaseBodySchema = z.object({
  /** The version to publish; the bot's latest when left out. */
  version: z
    .number({ error: RELEASE_MESSAGES.version })
    .int(RELEASE_MESSAGES.version)
    .positive(RELEASE_MESSAGES.version)
    .optional(),
  /** Publish although the gate would block (or blocked): the reason is kept in the history. */
  override: z.object({ reason: boundedText('Reason', RELEASE_REASON_MAX).min(1, RELEASE_MESSAGES.reason) }).optional(),
  /** Rollback: publish a version that was published before at once, without running its tests again. */
  skipGate: z.boolean({ error: 'skipGate must be true or false' }).optional(),
});
export type CreateReleaseBody = z.infer<typeof createReleaseBodySchema>;

/** One question the gate held against the release: it passed on the published version and fails now. */
export const releaseReasonSchema = z.object({
  query: z.string(),
  change: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** The judge's reason for the verdict on the release's version. */
  reason: z.string().nullable(),
});

/** What the gate found: figures of both runs and, when it blocked, why. */
export const releaseVerdictSchema = z.object({
  /** False when the bot has no test set: nothing was tested. */
  tested: z.boolean(),
  passRate: z.number().nullable(),
  baselinePassRate: z.number().nullable(),
  better: z.number().int(),
  worse: z.number().int(),
  regressions: z.number().int(),
  judgeUnavailable: z.number().int(),
  /** "Version 5 vs version 4: 3 better, 1 worse, 1 regression". */
  summary: z.string(),
  /** Why the gate blocked, one line each (pass rate, regressions); empty when it held. */
  blockedBy: z.array(z.string()),
  questions: z.array(releaseReasonSchema),
  gate: releaseGateSchema,
});
export type ReleaseVerdict = z.infer<typeof releaseVerdictSchema>;

export const releaseSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  version: z.number().int(),
  status: z.enum(RELEASE_STATUSES),
  skipGate: z.boolean(),
  overrideReason: z.string().nullable(),
  /** The version that was published when this release was asked for. */
  baselineVersion: z.number().int().nullable(),
  evaluationId: z.number().int().nullable(),
  baselineEvaluationId: z.number().int().nullable(),
  verdict: releaseVerdictSchema.nullable(),
  /** Why a release failed (its evaluation could not run), or what a rollback or untested release means. */
  message: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type Release = z.infer<typeof releaseSchema>;

export const releaseParamsSchema = z.object({ id: idParamSchema, releaseId: idParamSchema });
