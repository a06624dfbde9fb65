import { botUrl } from '@/entities/bot/api/bot-url';
import { parseId } from '@/entities/bot/model/active-bot';
import { CHAT_STATUS_URL, conversationsUrl, MESSAGES_PAGE, messagePageUrl } from '@/entities/chat/api/chat-urls';
import { loadMarkdown } from '@/entities/chat/ui/load-markdown';
import { sendEarly } from '@/lib/early-requests';
import { getAuthToken } from '@/lib/storage';

type Address = Pick<Location, 'pathname' | 'search'>;

/** For /chat/{bot}?c={conversation}: the bot and conversation it names, each when valid; else undefined. */
function chatAddress({ pathname, search }: Address) {
  const chat = /^\/chat(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!chat) return undefined;
  return { botId: parseId(chat[1]), conversationId: parseId(new URLSearchParams(search).get('c')) };
}

/**
 * What the page at this address reads first, beyond the session check: for /chat/{bot}?c={conversation}, what
 * its route loader prefetches (features/chat/chat-page-loader.ts), from the same address builders.
 */
export function firstReads(address: Address): string[] {
  const chat = chatAddress(address);
  if (!chat) return [];
  const { botId, conversationId } = chat;
  return [
    CHAT_STATUS_URL,
    ...(botId === undefined ? [] : [botUrl(botId), conversationsUrl(botId)]),
    ...(conversationId === undefined ? [] : [messagePageUrl(conversationId, undefined, MESSAGES_PAGE)]),
  ];
}

/** Whether the page at this address opens a conversation, whose replies need the markdown renderer. */
export const opensConversation = (address: Address) => chatAddress(address)?.conversationId !== undefined;

// On import, not on a call from main.tsx: imports run first, and this one is main.tsx's first, so the requests
// leave before React and the rest of the app's code are evaluated.
sendEarly(firstReads(window.location));
// The renderer's chunk is fetched and compiled beside those reads, instead of once the page's own chunks have run
// (its route loader asks for it too, after the session check).
if (getAuthToken() && opensConversation(window.location)) void loadMarkdown();
