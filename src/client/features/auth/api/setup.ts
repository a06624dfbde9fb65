import { useQuery } from '@tanstack/react-query';
import type { AuthSetupResponse } from '@shared/contracts/auth';
import { apiRequest } from '@/lib/request';

/** Whether the first account of this server needs the setup code from its log (decision 0030). */
export function useAuthSetup() {
  return useQuery({
    queryKey: ['auth', 'setup'],
    queryFn: () => apiRequest<AuthSetupResponse>('GET', '/api/auth/setup'),
  });
}
