import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { BOTS_QUERY_KEY } from './get-bots';

export const deleteBot = (id: number) => apiRequest<{ message: string }>('DELETE', `/api/bots/${id}`);

/** Spec §4: the bot leaves the list at once; on failure the list is fetched again. */
export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBot,
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: BOTS_QUERY_KEY });
      queryClient.setQueryData<Bot[]>(BOTS_QUERY_KEY, (bots) => bots?.filter((b) => b.id !== id));
    },
    onSuccess: () => invalidateActivities(queryClient),
    onError: () => queryClient.invalidateQueries({ queryKey: BOTS_QUERY_KEY }),
  });
}
