import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BotVersion, BotVersionSummary } from '@shared/contracts/bot-versions';
import type { Bot } from '@shared/contracts/bots';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { apiRequest } from '@/lib/request';

const versionKeys = {
  list: (botId: number) => [...botKeys.detail(botId), 'versions'] as const,
  one: (botId: number, n: number) => [...botKeys.detail(botId), 'versions', n] as const,
};

export function useBotVersions(botId: number) {
  return useQuery({
    queryKey: versionKeys.list(botId),
    queryFn: () => apiRequest<BotVersionSummary[]>('GET', `/api/bots/${botId}/versions`),
  });
}

/** A version's snapshot never changes once written, so it is fetched once. */
export function useBotVersion(botId: number, n: number | null) {
  return useQuery({
    queryKey: versionKeys.one(botId, n ?? 0),
    queryFn: () => apiRequest<BotVersion>('GET', `/api/bots/${botId}/versions/${n}`),
    enabled: n !== null,
  });
}

/** Afterwards everything cached about the bot is refreshed: it has a new current version. */
export function useRestoreVersion(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (n: number) => apiRequest<Bot>('POST', `/api/bots/${botId}/versions/${n}/restore`),
    onSuccess: async (bot) => {
      queryClient.setQueryData(botKeys.detail(bot.id), bot);
      await queryClient.invalidateQueries({ queryKey: botKeys.all });
    },
  });
}
