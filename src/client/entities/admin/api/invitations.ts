import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@shared/contracts/admin';
import { apiRequest } from '@/lib/request';
import { adminKeys } from './admin-keys';

const BASE = '/api/admin/invitations';

export type CreatedInvitation = Invitation & { url: string };

export function useInvitations() {
  return useQuery({
    queryKey: adminKeys.invitations(),
    queryFn: async () => (await apiRequest<{ invitations: Invitation[] }>('GET', BASE)).invitations,
  });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email?: string; expiresInDays: number }) => apiRequest<CreatedInvitation>('POST', BASE, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.invitations() }),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `${BASE}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.invitations() }),
  });
}
