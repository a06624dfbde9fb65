import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeedbackLog, FeedbackRating, FeedbackSurface } from '@shared/contracts/feedback';
import type { TestCase, TestCaseRequest, TestImportResult } from '@shared/contracts/test-cases';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { testCasesKey } from '@/entities/bot/api/get-tests';
import { apiFetch, apiRequest } from '@/lib/request';
import { attachmentName, saveFile } from '@/lib/save-file';

export interface FeedbackFilters {
  rating?: FeedbackRating;
  version?: number;
  surface?: FeedbackSurface;
}

export { useTests } from '@/entities/bot/api/get-tests';

const testKeys = {
  list: testCasesKey,
  feedback: (botId: number, filters: FeedbackFilters) => [...botKeys.detail(botId), 'feedback', filters] as const,
  anyFeedback: (botId: number) => [...botKeys.detail(botId), 'feedback'] as const,
};

/** After any change the list, and the feedback log's "In tests" marks, are read again. */
function useTestsMutation<Input, Output>(botId: number, mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: testKeys.list(botId) });
      await queryClient.invalidateQueries({ queryKey: testKeys.anyFeedback(botId) });
    },
  });
}

/** Adds a case, or with `id` changes one. */
export const useSaveTest = (botId: number) =>
  useTestsMutation(botId, ({ id, body }: { id?: number; body: TestCaseRequest }) =>
    id === undefined
      ? apiRequest<TestCase>('POST', `/api/bots/${botId}/tests`, body)
      : apiRequest<TestCase>('PATCH', `/api/bots/${botId}/tests/${id}`, body),
  );

export const useDeleteTest = (botId: number) =>
  useTestsMutation(botId, (id: number) => apiRequest<{ message: string }>('DELETE', `/api/bots/${botId}/tests/${id}`));

/** Sends the picked file as CSV text (the route takes text/csv, decision 0041). */
export const useImportTests = (botId: number) =>
  useTestsMutation(botId, async (file: File) => {
    const csv = new Blob([await file.text()], { type: 'text/csv' });
    return apiRequest<TestImportResult>('POST', `/api/bots/${botId}/tests/import`, csv);
  });

/** The reply's question becomes a test (409 when it is one already). */
export const useAddToTests = (botId: number) =>
  useTestsMutation(botId, (messageId: number) => apiRequest<TestCase>('POST', `/api/messages/${messageId}/test-case`));

export async function downloadTestsCsv(botId: number): Promise<void> {
  const res = await apiFetch('GET', `/api/bots/${botId}/tests.csv`);
  saveFile(await res.blob(), attachmentName(res, `bot-${botId}-tests.csv`));
}

function feedbackPath(botId: number, filters: FeedbackFilters, cursor: string | null) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, cursor })) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const query = params.toString();
  return `/api/bots/${botId}/feedback${query ? `?${query}` : ''}`;
}

/** The owner's feedback log, a page at a time (Load more). */
export function useFeedbackLog(botId: number, filters: FeedbackFilters) {
  return useInfiniteQuery({
    queryKey: testKeys.feedback(botId, filters),
    queryFn: ({ pageParam }) => apiRequest<FeedbackLog>('GET', feedbackPath(botId, filters, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}
