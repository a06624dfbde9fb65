import { useMutation } from '@tanstack/react-query';
import type { RegisterBody, User } from '@shared/contracts/auth';
import { apiRequest } from '@/lib/request';

interface RegisterResponse {
  message: string;
  /** Absent while the account awaits e-mail verification. */
  user?: User;
  needsVerification: boolean;
}

function register(body: RegisterBody): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('POST', '/api/auth/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
