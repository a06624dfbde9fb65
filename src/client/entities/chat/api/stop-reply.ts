import type { z } from 'zod';
import type { stopResponseSchema } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';

/**
 * Ends the reply being written in the conversation; `stopped` is false when none was running, and `message`
 * says why when Stop could not reach the server writing it.
 */
export const stopReply = (conversationId: number) =>
  apiRequest<z.infer<typeof stopResponseSchema>>('POST', `/api/conversations/${conversationId}/stop`);
