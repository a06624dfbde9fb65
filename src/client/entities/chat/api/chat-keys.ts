/** Query keys of the chat entity. */
export const chatKeys = {
  status: ['chat-status'] as const,
  conversations: (botId: number) => ['conversations', botId] as const,
  conversation: (conversationId: number) => ['conversation', conversationId] as const,
  messages: (conversationId: number) => ['messages', conversationId] as const,
  attachmentPreview: (fileId: number) => ['attachment-preview', fileId] as const,
};
