import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

const deleteBot = (id: number) => apiRequest<{ message: string }>('DELETE', `/api/bots/${id}`);

/** Spec §4: the bot leaves the list at once; on failure the list is fetched again. */
export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBot,
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: botKeys.list() });
      queryClient.setQueryData<Bot[]>(botKeys.list(), (bots) => bots?.filter((b) => b.id !== id));
    },
    onSuccess: () => invalidateActivities(queryClient),
    onError: () => queryClient.invalidateQueries({ queryKey: botKeys.list() }),
  });
}
