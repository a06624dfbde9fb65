import { useMutation } from '@tanstack/react-query';
import type { EmailBody } from '@shared/contracts/auth';
import { apiRequest } from '@/lib/request';

function forgotPassword(body: EmailBody): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/auth/forgot-password', body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
