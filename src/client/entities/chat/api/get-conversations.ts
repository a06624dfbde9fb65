import { useQuery } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const getConversations = (botId: number) => apiRequest<Conversation[]>('GET', `/api/bots/${botId}/conversations`);

/** A bot's conversations, the most recently active first. */
export const useConversations = (botId: number) =>
  useQuery({ queryKey: chatKeys.conversations(botId), queryFn: () => getConversations(botId) });

/** One of the caller's conversations, readable even when its bot no longer is (no longer shared with them). */
export const useConversation = (conversationId: number | undefined) =>
  useQuery({
    queryKey: chatKeys.conversation(conversationId ?? 0),
    queryFn: () => apiRequest<Conversation>('GET', `/api/conversations/${conversationId}`),
    enabled: conversationId !== undefined,
    retry: false,
  });
