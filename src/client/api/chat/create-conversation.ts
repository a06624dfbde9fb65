import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation, CreateConversationBody } from '@shared/contracts/chat';
import { invalidateActivities } from '@/api/activities/get-activities';
import { apiRequest } from '@/lib/request';
import { conversationsQueryKey } from './get-conversations';

export const createConversation = (body: CreateConversationBody) =>
  apiRequest<Conversation>('POST', '/api/conversations', body);

export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConversation,
    onSuccess: (conversation) => {
      // Into the cached list at once, so a page that checks the chosen id against the list finds it there.
      queryClient.setQueryData<Conversation[]>(conversationsQueryKey(conversation.botId), (list) =>
        list ? [conversation, ...list] : list,
      );
      // A new conversation is a "chat started" activity.
      return invalidateActivities(queryClient);
    },
  });
}
