import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Connection, ConnectionTest, CreateConnectionBody, PatchConnectionBody } from '@shared/contracts/admin';
import { MODELS_QUERY_KEY } from '@/entities/model/api/get-models';
import { apiRequest } from '@/lib/request';
import { adminKeys } from './admin-keys';

const BASE = '/api/admin/connections';

export function useConnections() {
  return useQuery({
    queryKey: adminKeys.connections(),
    queryFn: async () => (await apiRequest<{ connections: Connection[] }>('GET', BASE)).connections,
  });
}

/** A connection change can change which models people may pick, so the model list is refetched too. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.connections() }),
      queryClient.invalidateQueries({ queryKey: MODELS_QUERY_KEY }),
    ]);
  };
}

export function useCreateConnection() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (body: CreateConnectionBody) => apiRequest<Connection>('POST', BASE, body),
    onSuccess: refresh,
  });
}

export function useUpdateConnection() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PatchConnectionBody }) =>
      apiRequest<Connection>('PATCH', `${BASE}/${id}`, body),
    onSuccess: refresh,
  });
}

export function useDeleteConnection() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `${BASE}/${id}`),
    onSuccess: refresh,
  });
}

export function useTestConnection() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<ConnectionTest>('POST', `${BASE}/${id}/test`),
  });
}
