import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Feedback, FeedbackBody } from '@shared/contracts/feedback';
import { apiRequest } from '@/lib/request';

const feedbackKey = (conversationId: number) => ['feedback', conversationId] as const;

/** The conversation's ratings, fetched once per conversation and kept current by `useRateMessage`. */
export function useConversationFeedback(conversationId: number) {
  return useQuery({
    queryKey: feedbackKey(conversationId),
    queryFn: () => apiRequest<Feedback[]>('GET', `/api/conversations/${conversationId}/feedback`),
  });
}

/**
 * Rates a reply (null removes the rating); the list takes the server's answer. A fetch of the list under way when
 * the rating is sent is cancelled: its answer, read before the rating was saved, would undo it on screen. The list
 * it was loading for the first time is then fetched again once the rating is saved.
 */
export function useRateMessage(conversationId: number) {
  const queryClient = useQueryClient();
  const key = feedbackKey(conversationId);
  return useMutation({
    mutationFn: ({ messageId, ...body }: FeedbackBody & { messageId: number }) =>
      apiRequest<Feedback>('POST', `/api/messages/${messageId}/feedback`, body),
    onMutate: async () => {
      const loaded = queryClient.getQueryData(key) !== undefined;
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      return { loaded };
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<Feedback[]>(key, (list = []) => [
        ...list.filter((f) => f.messageId !== saved.messageId),
        ...(saved.rating ? [saved] : []),
      ]);
    },
    onSettled: (_saved, _error, _body, context) => {
      if (!context?.loaded) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    },
  });
}
