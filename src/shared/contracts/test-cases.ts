import { z } from 'zod';

/**
 * One question of a bot's test set: what a release is checked against. `expected` is an expected answer or the
 * criteria an answer must meet (the judge reads it either way); null when any fitting answer passes.
 */
export const testCaseSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  query: z.string(),
  expected: z.string().nullable(),
  tags: z.array(z.string()),
  /** The rated reply this case was made from ("Add to tests"), when it was. */
  sourceMessageId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TestCase = z.infer<typeof testCaseSchema>;
