import { useQuery } from '@tanstack/react-query';
import type { registrationInfoSchema } from '@shared/contracts/admin';
import type { z } from 'zod';
import { apiRequest } from '@/lib/request';

type RegistrationInfo = z.infer<typeof registrationInfoSchema>;

/** Whether sign-up is open, closed, or by invitation only (an administrator's choice, issue 23). */
export function useRegistrationInfo() {
  return useQuery({
    queryKey: ['auth', 'registration'],
    queryFn: () => apiRequest<RegistrationInfo>('GET', '/api/auth/registration'),
  });
}
