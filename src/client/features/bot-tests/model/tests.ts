import { z } from 'zod';
import { TEST_EXPECTED_MAX } from '@shared/constants';
import type { FeedbackSurface } from '@shared/contracts/feedback';
import { TEST_CASE_MESSAGES, testCaseBodySchema, type TestCase } from '@shared/contracts/test-cases';

/** Every tag used in the set, in alphabetical order: the tag filter's choices. */
export const tagsOf = (cases: readonly TestCase[]) =>
  [...new Set(cases.flatMap((c) => c.tags))].sort((a, b) => a.localeCompare(b));

export const withTag = (cases: readonly TestCase[], tag: string | null) =>
  tag === null ? cases : cases.filter((c) => c.tags.includes(tag));

/** Tags typed as one line, separated by commas. */
export const splitTags = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** The dialog's fields as typed; checked with the same rules as the server's. */
export const testCaseFormSchema = z.object({
  query: testCaseBodySchema.shape.query,
  expected: z.string().trim().max(TEST_EXPECTED_MAX, TEST_CASE_MESSAGES.expected),
  tags: z.string().transform(splitTags).pipe(testCaseBodySchema.shape.tags.unwrap()),
});
export type TestCaseFormInput = z.input<typeof testCaseFormSchema>;
export type TestCaseFormValues = z.output<typeof testCaseFormSchema>;

export const formValuesOf = (test: TestCase | null): TestCaseFormInput => ({
  query: test?.query ?? '',
  expected: test?.expected ?? '',
  tags: test?.tags.join(', ') ?? '',
});

export const SURFACE_LABELS: Record<FeedbackSurface, string> = {
  owner: 'Your chats',
  link: 'Shared link',
  explore: 'Explore',
  widget: 'Widget',
  api: 'API',
};
