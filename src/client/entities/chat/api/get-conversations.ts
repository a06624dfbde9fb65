import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';

export const conversationsQueryKey = (botId: number) => [`/api/bots/${botId}/conversations`] as const;

/** A bot's conversations, the most recently active first. */
export const conversationsQueryOptions = (botId: number) =>
  queryOptions({
    queryKey: conversationsQueryKey(botId),
    queryFn: () => apiRequest<Conversation[]>('GET', `/api/bots/${botId}/conversations`),
  });

export const useConversations = (botId: number) => useQuery(conversationsQueryOptions(botId));
