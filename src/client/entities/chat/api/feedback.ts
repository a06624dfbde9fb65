import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Feedback, FeedbackBody } from '@shared/contracts/feedback';
import { setSavedData } from '@/lib/query-client';
import { apiRequest } from '@/lib/request';

const feedbackKey = (conversationId: number) => ['feedback', conversationId] as const;

/** The conversation's ratings, fetched once per conversation and kept current by `useRateMessage`. */
export function useConversationFeedback(conversationId: number) {
  return useQuery({
    queryKey: feedbackKey(conversationId),
    queryFn: () => apiRequest<Feedback[]>('GET', `/api/conversations/${conversationId}/feedback`),
  });
}

/** Rates a reply (null removes the rating); the list takes the server's answer. */
export function useRateMessage(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, ...body }: FeedbackBody & { messageId: number }) =>
      apiRequest<Feedback>('POST', `/api/messages/${messageId}/feedback`, body),
    onSuccess: (saved) =>
      setSavedData<Feedback[]>(queryClient, feedbackKey(conversationId), (list = []) => [
        ...list.filter((f) => f.messageId !== saved.messageId),
        ...(saved.rating ? [saved] : []),
      ]),
  });
}
