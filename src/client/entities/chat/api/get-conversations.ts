import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Conversation, ConversationSummary } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';
import { conversationsUrl } from './chat-urls';

const getConversations = (botId: number) => apiRequest<Conversation[]>('GET', conversationsUrl(botId));

/** A bot's conversations, the most recently active first. */
export const conversationsQueryOptions = (botId: number) =>
  queryOptions({ queryKey: chatKeys.conversations(botId), queryFn: () => getConversations(botId) });

export const useConversations = (botId: number) => useQuery(conversationsQueryOptions(botId));

/**
 * One of the caller's conversations with its bot's name and icon, readable even when the bot no longer is (no
 * longer shared with them).
 */
export const useConversation = (conversationId: number | undefined) =>
  useQuery({
    queryKey: chatKeys.conversation(conversationId ?? 0),
    queryFn: () => apiRequest<ConversationSummary>('GET', `/api/conversations/${conversationId}`),
    enabled: conversationId !== undefined,
    retry: false,
  });
