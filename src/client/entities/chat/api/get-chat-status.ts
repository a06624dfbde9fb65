import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatStatus } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';
import { CHAT_STATUS_URL } from './chat-urls';

const getChatStatus = () => apiRequest<ChatStatus>('GET', CHAT_STATUS_URL);

/** Whether a language model is connected; offline replies only explain how to connect one. */
export const chatStatusQueryOptions = queryOptions({ queryKey: chatKeys.status, queryFn: getChatStatus });

export const useChatStatus = () => useQuery(chatStatusQueryOptions);
