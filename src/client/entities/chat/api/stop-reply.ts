import { apiRequest } from '@/lib/request';

/** Ends the reply being written in the conversation; `stopped` is false when none was running. */
export const stopReply = (conversationId: number) =>
  apiRequest<{ stopped: boolean }>('POST', `/api/conversations/${conversationId}/stop`);
