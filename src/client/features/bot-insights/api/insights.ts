import { useQuery } from '@tanstack/react-query';
import type { Insights } from '@shared/contracts/insights';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { apiRequest } from '@/lib/request';

export function useInsights(botId: number, days: number) {
  return useQuery({
    queryKey: [...botKeys.detail(botId), 'insights', days],
    queryFn: () => apiRequest<Insights>('GET', `/api/bots/${botId}/insights?days=${days}`),
  });
}
