import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareBody, ShareLink, ShareStatus } from '@shared/contracts/shares';
import { apiRequest } from '@/lib/request';

const shareKey = (conversationId: number) => ['conversation-share', conversationId] as const;

/** Whether the conversation has a live snapshot link (the link itself is only shown when made). */
export function useShareStatus(conversationId: number, enabled = true) {
  return useQuery({
    queryKey: shareKey(conversationId),
    queryFn: () => apiRequest<ShareStatus>('GET', `/api/conversations/${conversationId}/share`),
    enabled,
  });
}

/** A new read-only snapshot link of the conversation as it is now; an earlier link of it stops working. */
export function useShareConversation(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ShareBody) => apiRequest<ShareLink>('POST', `/api/conversations/${conversationId}/share`, body),
    onSuccess: (link) =>
      queryClient.setQueryData<ShareStatus>(shareKey(conversationId), {
        share: { sharedAt: link.sharedAt, expiresAt: link.expiresAt },
      }),
  });
}

export function useRevokeShare(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>('DELETE', `/api/conversations/${conversationId}/share`),
    onSuccess: () => queryClient.setQueryData<ShareStatus>(shareKey(conversationId), { share: null }),
  });
}
