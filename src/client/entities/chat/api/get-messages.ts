import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Message } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';

export const messagesQueryKey = (conversationId: number) => [`/api/conversations/${conversationId}/messages`] as const;

export const messagesQueryOptions = (conversationId: number) =>
  queryOptions({
    queryKey: messagesQueryKey(conversationId),
    queryFn: () => apiRequest<Message[]>('GET', `/api/conversations/${conversationId}/messages`),
  });

/** Spec §4: messages load only once the conversation exists. */
export function useMessages(conversationId: number | undefined) {
  return useQuery({ ...messagesQueryOptions(conversationId ?? 0), enabled: conversationId !== undefined });
}
