import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { useAuth } from '@/lib/auth';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

const getBots = () => apiRequest<Bot[]>('GET', '/api/bots');

/**
 * Spec §8: a failed list is logged (by apiRequest) and reported once through the query cache's error toast;
 * the screens show the failure with a Retry. Coming back to the tab tries a failed list again.
 */
const botsQueryOptions = queryOptions({
  queryKey: botKeys.list(),
  queryFn: getBots,
  meta: { errorToast: 'Failed to fetch bots' },
  refetchOnWindowFocus: (query) => query.state.status === 'error',
});

/** The list loads only for a signed-in user (spec §6). */
export function useBots() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...botsQueryOptions, enabled: isAuthenticated });
}
