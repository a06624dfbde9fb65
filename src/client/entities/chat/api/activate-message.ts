import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { chatKeys } from './chat-keys';
import { MESSAGES_PAGE } from './chat-urls';
import { type MessageWindow, withNewestPage } from './get-messages';

/** The branch made active, its newest page only: a long conversation's switcher does not fetch all of it. */
const activateMessage = ({ messageId }: { conversationId: number; messageId: number }) =>
  apiRequest<Message[]>('POST', `/api/messages/${messageId}/activate?limit=${MESSAGES_PAGE}`);

/**
 * The version switcher: the branch through this version becomes the conversation's messages. The older messages
 * already loaded stay when the page reaches back to them (they are the same turns on either branch).
 */
export function useActivateMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateMessage,
    onSuccess: (page, { conversationId }) =>
      queryClient.setQueryData<MessageWindow>(chatKeys.messages(conversationId), (current) =>
        withNewestPage(current, page, MESSAGES_PAGE),
      ),
  });
}
