import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { setSavedData } from '@/lib/query-client';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const deleteConversation = (conversation: Conversation) =>
  apiRequest<{ message: string }>('DELETE', `/api/conversations/${conversation.id}`);

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_, deleted) => {
      setSavedData<Conversation[]>(queryClient, chatKeys.conversations(deleted.botId), (list) =>
        list?.filter((conversation) => conversation.id !== deleted.id),
      );
      queryClient.removeQueries({ queryKey: chatKeys.messages(deleted.id) });
    },
  });
}
