import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { LIST_LIMIT_MAX } from '@shared/constants';
import type { Message } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { isDraft } from '../model/apply-stream-event';
import { chatKeys } from './chat-keys';
import { MESSAGES_PAGE, messagePageUrl } from './chat-urls';

/** The newest messages of a conversation's active branch, oldest first: what has been fetched of it so far. */
export interface MessageWindow {
  messages: Message[];
  /** The conversation has older messages than the first one here, left on the server until asked for. */
  older: boolean;
}

const getMessagePage = (conversationId: number, before: number | undefined, limit: number) =>
  apiRequest<Message[]>('GET', messagePageUrl(conversationId, before, limit));

/**
 * The newest page fetched again, put in place of what `current` holds from the page's first message on; the
 * older messages already loaded stay. Only when the two overlap: a conversation changed further back than the
 * page reaches (another tab edited an old message) starts the window again from the page.
 */
export function withNewestPage(current: MessageWindow | undefined, page: Message[], limit: number): MessageWindow {
  const first = page[0];
  if (page.length < limit || !first) return { messages: page, older: false };
  if (!current?.messages.some((message) => message.id === first.id)) return { messages: page, older: true };
  const kept = current.messages.filter((message) => !isDraft(message) && message.id < first.id);
  return { messages: [...kept, ...page], older: current.older };
}

/** The window with the page before its first message put in front (none: it already reaches the start). */
export function withOlderPage(current: MessageWindow, page: Message[], limit: number): MessageWindow {
  return { messages: [...page, ...current.messages], older: page.length === limit };
}

/** The window after `change` to its messages (a streamed reply, an edit): the stream's way to write the cache. */
export function updateMessages(
  queryClient: QueryClient,
  conversationId: number,
  change: (messages: Message[]) => Message[],
) {
  queryClient.setQueryData<MessageWindow>(chatKeys.messages(conversationId), (current) => ({
    messages: change(current?.messages ?? []),
    older: current?.older ?? false,
  }));
}

/**
 * Spec §4: messages load only once the conversation exists. The newest page first (issue 26); useOlderMessages
 * puts older pages in front as the reader scrolls up. Fetching again refreshes the newest page only.
 */
export const messagesQueryOptions = (queryClient: QueryClient, conversationId: number) =>
  queryOptions({
    queryKey: chatKeys.messages(conversationId),
    queryFn: async () => {
      const page = await getMessagePage(conversationId, undefined, MESSAGES_PAGE);
      return withNewestPage(queryClient.getQueryData(chatKeys.messages(conversationId)), page, MESSAGES_PAGE);
    },
  });

export function useMessages(conversationId: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({ ...messagesQueryOptions(queryClient, conversationId ?? 0), enabled: conversationId !== undefined });
}

const latestModelOf = ({ messages }: MessageWindow) =>
  messages.findLast((message) => message.role === 'assistant' && message.model)?.model;

/**
 * The model of the conversation's latest reply: its caller redraws when that changes, not with each frame of a
 * streamed reply, as a caller of useMessages does.
 */
export function useLatestModel(conversationId: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    ...messagesQueryOptions(queryClient, conversationId ?? 0),
    enabled: conversationId !== undefined,
    select: latestModelOf,
  }).data;
}

/**
 * Loads the page before the window's first message. One at a time; a page that arrives after the window was
 * replaced (another version shown) is dropped. `limit` defaults to a page; a search hit far back asks for more.
 */
export function useOlderMessages(conversationId: number | undefined) {
  const queryClient = useQueryClient();
  const busy = useRef(false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const load = useCallback(
    async (limit = MESSAGES_PAGE) => {
      if (conversationId === undefined || busy.current) return;
      const key = chatKeys.messages(conversationId);
      const firstOf = (window: MessageWindow | undefined) => window?.messages.find((message) => !isDraft(message))?.id;
      const first = firstOf(queryClient.getQueryData(key));
      if (first === undefined || !queryClient.getQueryData<MessageWindow>(key)?.older) return;
      const size = Math.min(limit, LIST_LIMIT_MAX);
      busy.current = true;
      setLoading(true);
      setFailed(false);
      try {
        const page = await getMessagePage(conversationId, first, size);
        queryClient.setQueryData<MessageWindow>(key, (current) =>
          current?.older && firstOf(current) === first ? withOlderPage(current, page, size) : current,
        );
      } catch {
        setFailed(true);
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [conversationId, queryClient],
  );
  return { load, loading, failed };
}
