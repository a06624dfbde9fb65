import { useMutation } from '@tanstack/react-query';
import type { ToolApprovalResponse } from '@shared/contracts/chat';
import type { ToolApprovalBody } from '@shared/contracts/mcp-servers';
import { apiRequest } from '@/lib/request';

const approveToolCall = ({ conversationId, ...body }: ToolApprovalBody & { conversationId: number }) =>
  apiRequest<ToolApprovalResponse>('POST', `/api/conversations/${conversationId}/tool-approvals`, body);

/**
 * The person's answer to a tool call waiting in the reply: the reply's stream then goes on with it (the step
 * changes there), so nothing is cached here.
 */
export const useToolApproval = () => useMutation({ mutationFn: approveToolCall });
