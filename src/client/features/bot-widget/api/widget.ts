import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateBotSharingRequest } from '@shared/contracts/bot-sharing';
import type { Bot } from '@shared/contracts/bots';
import type { Message } from '@shared/contracts/chat';
import type { UpdateWidgetAppearanceRequest, WidgetAppearance, WidgetConversations } from '@shared/contracts/widget';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { apiRequest } from '@/lib/request';

const widgetKeys = {
  appearance: (botId: number) => [...botKeys.detail(botId), 'widget-appearance'] as const,
  conversations: (botId: number) => [...botKeys.detail(botId), 'widget-conversations'] as const,
  messages: (botId: number, conversationId: number) =>
    [...widgetKeys.conversations(botId), conversationId, 'messages'] as const,
};

export const useWidgetConversations = (botId: number) =>
  useQuery({
    queryKey: widgetKeys.conversations(botId),
    queryFn: () => apiRequest<WidgetConversations>('GET', `/api/bots/${botId}/widget-conversations`),
  });

/** Fetched only once the owner opens the conversation. */
export const useWidgetMessages = (botId: number, conversationId: number, enabled: boolean) =>
  useQuery({
    queryKey: widgetKeys.messages(botId, conversationId),
    queryFn: () => apiRequest<Message[]>('GET', `/api/bots/${botId}/widget-conversations/${conversationId}/messages`),
    enabled,
  });

/** The widget's settings are part of the bot's sharing (PATCH /api/bots/{id}/sharing). */
export function useSaveWidgetSettings(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateBotSharingRequest) => apiRequest<Bot>('PATCH', `/api/bots/${botId}/sharing`, changes),
    onSuccess: async (bot) => {
      queryClient.setQueryData(botKeys.detail(bot.id), bot);
      await queryClient.invalidateQueries({ queryKey: widgetKeys.conversations(bot.id) });
    },
  });
}

export const useWidgetAppearance = (botId: number) =>
  useQuery({
    queryKey: widgetKeys.appearance(botId),
    queryFn: () => apiRequest<WidgetAppearance>('GET', `/api/bots/${botId}/widget-appearance`),
  });

export function useSaveWidgetAppearance(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateWidgetAppearanceRequest) =>
      apiRequest<WidgetAppearance>('PATCH', `/api/bots/${botId}/widget-appearance`, changes),
    onSuccess: (saved) => queryClient.setQueryData(widgetKeys.appearance(botId), saved),
  });
}
