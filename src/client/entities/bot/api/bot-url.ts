/** A bot's address, for its query and for the chat page's early requests (a leaf module, see chat-urls.ts). */
export const botUrl = (botId: number) => `/api/bots/${botId}`;
