import { useQuery } from '@tanstack/react-query';
import type { Snapshot } from '@shared/contracts/shares';
import { apiRequest } from '@/lib/request';

/** Anyone with the link may read it; a revoked or expired link answers 404, which is not worth retrying. */
export function useSnapshot(token: string) {
  return useQuery({
    queryKey: ['snapshot', token],
    queryFn: () => apiRequest<Snapshot>('GET', `/api/shares/${encodeURIComponent(token)}`),
    retry: false,
  });
}
