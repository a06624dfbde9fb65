import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bot, UpdateBotRequest } from '@shared/contracts/bots';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

const updateBot = ({ id, changes }: { id: number; changes: UpdateBotRequest }) =>
  apiRequest<Bot>('PATCH', `/api/bots/${id}`, changes);

/** Afterwards the cached list is refreshed (spec §7) and the single bot's cache takes the server's answer. */
export function useUpdateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBot,
    onSuccess: async (bot) => {
      queryClient.setQueryData(botKeys.detail(bot.id), bot);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: botKeys.list() }),
        invalidateActivities(queryClient),
      ]);
    },
  });
}
