/**
 * The addresses the chat page reads first, built in one place: its queries ask them, and the page's early
 * requests (app/early-requests.ts) send the same ones before the app's code has loaded. A leaf module, so the
 * early requests load nothing else before they leave.
 */

/** Messages a page: a few screens, so a conversation opens on one small request and scrolling up rarely waits. */
export const MESSAGES_PAGE = 100;

export const CHAT_STATUS_URL = '/api/chat/status';

export const conversationsUrl = (botId: number) => `/api/bots/${botId}/conversations`;

/** The newest `limit` messages of the active branch before message `before` (none: from the end). */
export const messagePageUrl = (conversationId: number, before: number | undefined, limit: number) =>
  `/api/conversations/${conversationId}/messages?limit=${limit}${before === undefined ? '' : `&cursor=${before}`}`;
