import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { conversationsQueryKey } from './get-conversations';
import { messagesQueryKey } from './get-messages';

export const deleteConversation = (conversation: Conversation) =>
  apiRequest<{ message: string }>('DELETE', `/api/conversations/${conversation.id}`);

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_, deleted) => {
      queryClient.setQueryData<Conversation[]>(conversationsQueryKey(deleted.botId), (list) =>
        list?.filter((conversation) => conversation.id !== deleted.id),
      );
      queryClient.removeQueries({ queryKey: messagesQueryKey(deleted.id) });
    },
  });
}
