import { z } from 'zod';

export const INSIGHTS_DAYS_DEFAULT = 30;
export const INSIGHTS_DAYS_MAX = 365;
const DAYS_MESSAGE = `days must be a whole number from 1 to ${INSIGHTS_DAYS_MAX}`;

export const insightsQuerySchema = z.object({
  days: z.coerce
    .number({ error: DAYS_MESSAGE })
    .int(DAYS_MESSAGE)
    .min(1, DAYS_MESSAGE)
    .max(INSIGHTS_DAYS_MAX, DAYS_MESSAGE)
    .default(INSIGHTS_DAYS_DEFAULT),
});

export const insightsSchema = z.object({
  days: z.number().int(),
  /** The first and last day counted (UTC dates, YYYY-MM-DD); the last is today. */
  from: z.string(),
  to: z.string(),
  /** One entry per day, oldest first, days without activity included as zeros. */
  perDay: z.array(
    z.object({
      date: z.string(),
      conversations: z.number().int(),
      messages: z.number().int(),
      replies: z.number().int(),
    }),
  ),
  totals: z.object({ conversations: z.number().int(), messages: z.number().int(), replies: z.number().int() }),
  /** Over the replies that report them; null when none does. */
  medianFirstTokenMs: z.number().nullable(),
  medianReplyMs: z.number().nullable(),
  failedReplies: z.number().int(),
  stoppedReplies: z.number().int(),
  ratings: z.object({ up: z.number().int(), down: z.number().int() }),
  /** Sums over the replies whose provider reported usage; null when none did. */
  tokens: z.object({ input: z.number().int(), output: z.number().int() }).nullable(),
  /**
   * Replies checked against their sources (decision 0044) with something to check: their average share of
   * supported sentences (0..1) and how many they are; null when there are none.
   */
  faithfulness: z.object({ average: z.number(), replies: z.number().int() }).nullable(),
  /** The latest finished evaluation of each version that has one, newest version first. */
  testPassRates: z.array(
    z.object({ version: z.number().int(), passed: z.number().int(), total: z.number().int(), at: z.string() }),
  ),
});
export type Insights = z.infer<typeof insightsSchema>;
