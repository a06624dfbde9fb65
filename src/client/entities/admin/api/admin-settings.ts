import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, PatchAdminSettingsBody } from '@shared/contracts/admin';
import { apiRequest } from '@/lib/request';
import { adminKeys } from './admin-keys';

export function useAdminSettings() {
  return useQuery({
    queryKey: adminKeys.settings(),
    queryFn: () => apiRequest<AdminSettings>('GET', '/api/admin/settings'),
  });
}

export function useUpdateAdminSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchAdminSettingsBody) => apiRequest<AdminSettings>('PATCH', '/api/admin/settings', body),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminKeys.settings(), saved);
      // Role defaults change the limits shown beside each person.
      return queryClient.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}
