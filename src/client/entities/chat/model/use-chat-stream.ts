import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Message } from '@shared/contracts/chat';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { chatKeys } from '@/entities/chat/api/chat-keys';
import { useMessages } from '@/entities/chat/api/get-messages';
import { stopReply } from '@/entities/chat/api/stop-reply';
import { streamReply } from '@/entities/chat/api/stream-reply';
import { ApiError, serverMessage } from '@/lib/request';
import { applyStreamEvent, draftMessage, isDraft, withoutLastReplies } from './apply-stream-event';

export interface ChatFailure {
  message: string;
  retry: () => void;
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? 'The server could not answer. Please try again.';
  return 'Could not reach the server. Check your connection and try again.';
}

/**
 * A conversation's messages plus the reply being streamed into them. Drafts live in the messages cache
 * itself, so the streamed text turning into the saved message is one change and never flickers.
 */
export function useChatStream({ botId, conversationId }: { botId: number; conversationId: number | undefined }) {
  const queryClient = useQueryClient();
  const query = useMessages(conversationId);
  const [running, setRunning] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [failure, setFailure] = useState<ChatFailure | null>(null);
  const active = useRef<AbortController | null>(null);

  useEffect(() => {
    if (conversationId === undefined) return;
    const key = chatKeys.messages(conversationId);
    return () => {
      // Leaving mid-reply stops it; the server keeps what was written. Unsent drafts must not outlive the view.
      active.current?.abort();
      queryClient.setQueryData<Message[]>(key, (list) => list?.filter((message) => !isDraft(message)));
    };
  }, [conversationId, queryClient]);

  async function reply(id: number, content?: string) {
    if (active.current) return;
    const controller = new AbortController();
    active.current = controller;
    setRunning(true);
    setStopping(false);
    setFailure(null);

    const key = chatKeys.messages(id);
    const update = (change: (list: Message[]) => Message[]) =>
      queryClient.setQueryData<Message[]>(key, (list) => change(list ?? []));

    const regenerate = content === undefined;
    let userSaved = regenerate;
    let replySaved = false;
    let ended = false;
    // Read when clicked: a message the server saved gets a new reply; one it never saved is sent again.
    const retry = () => {
      if (!userSaved) update((list) => list.filter((message) => !isDraft(message)));
      void reply(id, userSaved ? undefined : content);
    };

    update((list) =>
      regenerate
        ? withoutLastReplies(list)
        : [
            ...list,
            draftMessage(list, {
              conversationId: id,
              role: 'user',
              content: content.trim(),
              createdAt: new Date().toISOString(),
            }),
          ],
    );
    try {
      for await (const event of streamReply({ conversationId: id, content, signal: controller.signal })) {
        update((list) => applyStreamEvent(list, event));
        if (event.event === 'user-message') userSaved = true;
        else if (event.event === 'done') {
          ended = true;
          replySaved = event.data !== null;
        } else if (event.event === 'error') {
          ended = true;
          setFailure({ message: event.data.message, retry });
        }
      }
      if (!ended) setFailure({ message: 'The reply was cut off before it finished.', retry });
    } catch (error) {
      if (!controller.signal.aborted) setFailure({ message: failureText(error), retry });
    } finally {
      active.current = null;
      setRunning(false);
      setStopping(false);
      // Whatever the server kept (a partial or failed reply, the previous reply after a failed regeneration,
      // a message cut off in flight) is fetched rather than guessed. A refused message changed nothing there
      // and stays as a draft beside its error.
      if (!replySaved && (userSaved || controller.signal.aborted)) {
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
      }
      if (replySaved) {
        void queryClient.invalidateQueries({ queryKey: botKeys.list(), exact: true });
        void queryClient.invalidateQueries({ queryKey: botKeys.detail(botId), exact: true });
      }
      void queryClient.invalidateQueries({ queryKey: chatKeys.conversations(botId), exact: true });
    }
  }

  /**
   * POST /stop lets the server end the stream with the partial reply saved; if it had no reply running yet
   * (the request still on its way), dropping the connection stops it instead.
   */
  async function stop() {
    const controller = active.current;
    if (!controller || stopping || conversationId === undefined) return;
    setStopping(true);
    try {
      const { stopped } = await stopReply(conversationId);
      if (!stopped) controller.abort();
    } catch {
      controller.abort();
    }
  }

  const messages = query.data;
  const last = messages?.at(-1);
  return {
    messages,
    isLoading: query.isPending && conversationId !== undefined,
    loadError: query.isError,
    reload: () => void query.refetch(),
    running,
    stopping,
    /** A reply was asked for and no text has come yet: the typing indicator's moment. */
    waiting: running && !(last && isDraft(last) && last.role === 'assistant'),
    failure,
    canSend: conversationId !== undefined && messages !== undefined && !running,
    send(content: string) {
      if (conversationId !== undefined && content.trim() !== '') void reply(conversationId, content);
    },
    regenerate() {
      if (conversationId !== undefined) void reply(conversationId);
    },
    stop: () => void stop(),
  };
}
