import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';
import type { MessageWindow } from './get-messages';

const activateMessage = ({ messageId }: { conversationId: number; messageId: number }) =>
  apiRequest<Message[]>('POST', `/api/messages/${messageId}/activate`);

/** The version switcher: the branch through this version becomes the conversation's messages. */
export function useActivateMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateMessage,
    onSuccess: (branch, { conversationId }) =>
      queryClient.setQueryData<MessageWindow>(chatKeys.messages(conversationId), { messages: branch, older: false }),
  });
}
