import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation, CreateConversationBody } from '@shared/contracts/chat';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const createConversation = (body: CreateConversationBody) =>
  apiRequest<Conversation>('POST', '/api/conversations', body);

/**
 * The list with `conversation` at its top, once: the server hands back the latest conversation again when it is
 * still empty rather than making another (conversations.service.ts), and that one is already in the list.
 */
export const withConversationFirst = (list: Conversation[], conversation: Conversation) => [
  conversation,
  ...list.filter((c) => c.id !== conversation.id),
];

export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConversation,
    onSuccess: (conversation) => {
      const key = chatKeys.conversations(conversation.botId);
      // Into the cached list at once, so a page that checks the chosen id against the list finds it there;
      // the refetch replaces a list request that was already under way and could answer without it.
      queryClient.setQueryData<Conversation[]>(key, (list) => list && withConversationFirst(list, conversation));
      // A new conversation is also a "chat started" activity.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: key, exact: true }),
        invalidateActivities(queryClient),
      ]);
    },
  });
}
