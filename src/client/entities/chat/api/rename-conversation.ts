import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation } from '@shared/contracts/chat';
import { setSavedData } from '@/lib/query-client';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';

const renameConversation = ({ id, title }: { id: number; title: string }) =>
  apiRequest<Conversation>('PATCH', `/api/conversations/${id}`, { title });

export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameConversation,
    onSuccess: (renamed) =>
      setSavedData<Conversation[]>(queryClient, chatKeys.conversations(renamed.botId), (list) =>
        list?.map((conversation) => (conversation.id === renamed.id ? renamed : conversation)),
      ),
  });
}
