import type { LoaderFunctionArgs } from 'react-router';
import { botQueryOptions } from '@/entities/bot/api/get-bot';
import { parseId } from '@/entities/bot/model/active-bot';
import { chatStatusQueryOptions } from '@/entities/chat/api/get-chat-status';
import { conversationsQueryOptions } from '@/entities/chat/api/get-conversations';
import { messagesQueryOptions } from '@/entities/chat/api/get-messages';
import { loadMarkdown } from '@/entities/chat/ui/load-markdown';
import { signedInUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';

/**
 * What /chat/{id}?c={conversation} shows first, asked for at once and side by side: the bot, its conversations,
 * the conversation's newest messages, whether a model is connected, and the markdown renderer. The page's own
 * queries then find them cached, where they used to ask one after another as each part of the page rendered
 * (issue 26: a conversation on screen in under 600 ms). Nothing is waited for: the page renders as before.
 */
export async function prefetchChatPage({ params, request }: LoaderFunctionArgs) {
  const botId = params.id === undefined ? undefined : parseId(params.id);
  const conversationId = parseId(new URL(request.url).searchParams.get('c'));
  // A visitor whose stored token turns out not to be valid asks for nothing: the sign-in page is next.
  const user = await signedInUser(queryClient).catch(() => null);
  if (!user) return;
  void queryClient.prefetchQuery(chatStatusQueryOptions);
  if (botId !== undefined) {
    void queryClient.prefetchQuery(botQueryOptions(botId));
    void queryClient.prefetchQuery(conversationsQueryOptions(botId));
  }
  if (conversationId !== undefined) {
    void queryClient.prefetchQuery(messagesQueryOptions(queryClient, conversationId));
    void loadMarkdown();
  }
}
