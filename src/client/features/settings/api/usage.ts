import { useQuery } from '@tanstack/react-query';
import type { UsageReport } from '@shared/contracts/admin';
import { apiRequest } from '@/lib/request';

/** One's own usage (GET /api/usage): the last 30 days by default, and today against the limits. */
export function useOwnUsage() {
  return useQuery({
    queryKey: ['usage', 'own'],
    queryFn: () => apiRequest<UsageReport>('GET', '/api/usage'),
  });
}
