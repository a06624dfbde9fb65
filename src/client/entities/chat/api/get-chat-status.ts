import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatStatus } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';

export const chatStatusQueryOptions = queryOptions({
  queryKey: ['/api/chat/status'] as const,
  queryFn: () => apiRequest<ChatStatus>('GET', '/api/chat/status'),
});

/** Whether a language model is connected; offline replies only explain how to connect one. */
export const useChatStatus = () => useQuery(chatStatusQueryOptions);
