import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bot, CreateBotRequest } from '@shared/contracts/bots';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

const createBot = (body: CreateBotRequest) => apiRequest<Bot>('POST', '/api/bots', body);

export function useCreateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBot,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: botKeys.list() }), invalidateActivities(queryClient)]),
  });
}
