import { useQuery } from '@tanstack/react-query';
import type { TestCase } from '@shared/contracts/test-cases';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

/** The bot's test set (decision 0041): one cache for the Tests page, which edits it, and the Versions page. */
export const testCasesKey = (botId: number) => [...botKeys.detail(botId), 'tests'] as const;

export function useTests(botId: number) {
  return useQuery({
    queryKey: testCasesKey(botId),
    queryFn: () => apiRequest<TestCase[]>('GET', `/api/bots/${botId}/tests`),
  });
}
