import { useQuery } from '@tanstack/react-query';
import type { Message } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const getMessages = (conversationId: number) =>
  apiRequest<Message[]>('GET', `/api/conversations/${conversationId}/messages`);

/** Spec §4: messages load only once the conversation exists. */
export function useMessages(conversationId: number | undefined) {
  return useQuery({
    queryKey: chatKeys.messages(conversationId ?? 0),
    queryFn: () => getMessages(conversationId ?? 0),
    enabled: conversationId !== undefined,
  });
}
