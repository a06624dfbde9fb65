import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, PatchAdminUserBody } from '@shared/contracts/admin';
import { apiRequest } from '@/lib/request';
import { adminKeys } from './admin-keys';

export const USERS_PAGE_SIZE = 25;

interface AdminUserList {
  users: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}

export function useAdminUsers(q: string, page: number) {
  return useQuery({
    queryKey: adminKeys.users({ q, page }),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(USERS_PAGE_SIZE) });
      if (q) params.set('q', q);
      return apiRequest<AdminUserList>('GET', `/api/admin/users?${params}`);
    },
    // Typing in the search box keeps the last page on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PatchAdminUserBody }) =>
      apiRequest<AdminUser>('PATCH', `/api/admin/users/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `/api/admin/users/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>('POST', `/api/admin/users/${id}/resend-verification`),
  });
}
