import { useQuery } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const getConversations = (botId: number) => apiRequest<Conversation[]>('GET', `/api/bots/${botId}/conversations`);

/** A bot's conversations, the most recently active first. */
export const useConversations = (botId: number) =>
  useQuery({ queryKey: chatKeys.conversations(botId), queryFn: () => getConversations(botId) });
