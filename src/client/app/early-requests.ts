import { botUrl } from '@/entities/bot/api/bot-url';
import { parseId } from '@/entities/bot/model/active-bot';
import { CHAT_STATUS_URL, conversationsUrl, MESSAGES_PAGE, messagePageUrl } from '@/entities/chat/api/chat-urls';
import { sendEarly } from '@/lib/early-requests';

/**
 * What the page at this address reads first, beyond the session check: for /chat/{bot}?c={conversation}, what
 * its route loader prefetches (features/chat/chat-page-loader.ts), from the same address builders.
 */
export function firstReads({ pathname, search }: Pick<Location, 'pathname' | 'search'>): string[] {
  const chat = /^\/chat(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!chat) return [];
  const botId = parseId(chat[1]);
  const conversationId = parseId(new URLSearchParams(search).get('c'));
  return [
    CHAT_STATUS_URL,
    ...(botId === undefined ? [] : [botUrl(botId), conversationsUrl(botId)]),
    ...(conversationId === undefined ? [] : [messagePageUrl(conversationId, undefined, MESSAGES_PAGE)]),
  ];
}

// On import, not on a call from main.tsx: imports run first, and this one is main.tsx's first, so the requests
// leave before React and the rest of the app's code are evaluated.
sendEarly(firstReads(window.location));
