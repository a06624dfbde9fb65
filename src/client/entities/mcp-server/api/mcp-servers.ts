import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { McpServer, McpServerCreate, McpServerUpdate } from '@shared/contracts/mcp-servers';
import { apiRequest } from '@/lib/request';

const BASE = '/api/mcp-servers';

/** Query keys of the MCP server entity: Settings → Tools and the wizard's tool picker read the same list. */
export const mcpServerKeys = {
  all: ['mcp-servers'] as const,
  list: () => [...mcpServerKeys.all, 'list'] as const,
};

/** The person's own servers and the ones an admin added for everyone, each with its listed tools. */
export function useMcpServers() {
  return useQuery({
    queryKey: mcpServerKeys.list(),
    queryFn: async () => (await apiRequest<{ servers: McpServer[] }>('GET', BASE)).servers,
  });
}

/** Every change answers with the server as saved (or nothing for a delete): the list is read again after it. */
function useServerMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mcpServerKeys.all }),
  });
}

export const useCreateMcpServer = () =>
  useServerMutation((body: McpServerCreate) => apiRequest<McpServer>('POST', BASE, body));

export const useUpdateMcpServer = () =>
  useServerMutation(({ id, body }: { id: number; body: McpServerUpdate }) =>
    apiRequest<McpServer>('PATCH', `${BASE}/${id}`, body),
  );

export const useDeleteMcpServer = () =>
  useServerMutation((id: number) => apiRequest<{ message: string }>('DELETE', `${BASE}/${id}`));

/** Connects again and lists the tools afresh; a server that cannot be reached answers with its error status. */
export const useRefreshMcpServer = () =>
  useServerMutation((id: number) => apiRequest<McpServer>('POST', `${BASE}/${id}/refresh`));
