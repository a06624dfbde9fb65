import { useMutation } from '@tanstack/react-query';
import type { LoginBody, User } from '@shared/contracts/auth';
import { apiRequest } from '@/lib/request';

interface LoginResponse {
  token: string;
  user: User;
}

async function login(body: LoginBody): Promise<LoginResponse> {
  const data = await apiRequest<Partial<LoginResponse>>('POST', '/api/auth/login', body);
  if (!data.token || !data.user) throw new Error('Invalid response from server');
  return { token: data.token, user: data.user };
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
