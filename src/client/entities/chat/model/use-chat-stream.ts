import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Attachment, Message } from '@shared/contracts/chat';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { chatKeys } from '@/entities/chat/api/chat-keys';
import { useActivateMessage } from '@/entities/chat/api/activate-message';
import { useMessages } from '@/entities/chat/api/get-messages';
import { stopReply } from '@/entities/chat/api/stop-reply';
import { type ReplyRequest, streamReply } from '@/entities/chat/api/stream-reply';
import { ApiError, serverMessage } from '@/lib/request';
import { applyStreamEvent, draftMessage, isDraft, isDraftReply, withoutLastReplies } from './apply-stream-event';

export interface ChatFailure {
  message: string;
  retry: () => void;
}

/** How long to wait before asking again when Stop reached the server before the reply had started there. */
const STOP_AGAIN_MS = 400;

function failureText(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? 'The server could not answer. Please try again.';
  return 'Could not reach the server. Check your connection and try again.';
}

/** A network drop (not a refusal, not our own abort): worth one reconnection to the reply, which goes on. */
const isDrop = (error: unknown, signal: AbortSignal) => !signal.aborted && !(error instanceof ApiError);

/**
 * A conversation's messages plus the reply being streamed into them. Drafts live in the messages cache
 * itself, so the streamed text turning into the saved message is one change and never flickers. The server
 * keeps writing a reply whoever listens (decision record 0011): leaving only stops listening, a dropped stream
 * is resumed once from its last event, and a conversation opened mid-reply follows that reply live.
 */
export function useChatStream({ botId, conversationId }: { botId: number; conversationId: number | undefined }) {
  const queryClient = useQueryClient();
  const query = useMessages(conversationId);
  const activate = useActivateMessage();
  const [running, setRunning] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [failure, setFailure] = useState<ChatFailure | null>(null);
  const active = useRef<AbortController | null>(null);
  const resumed = useRef(false);

  useEffect(() => {
    if (conversationId === undefined) return;
    const key = chatKeys.messages(conversationId);
    return () => {
      active.current?.abort();
      // Unsent drafts must not outlive the view; what the server kept is fetched on the next opening.
      queryClient.setQueryData<Message[]>(key, (list) => list?.filter((message) => !isDraft(message)));
    };
  }, [conversationId, queryClient]);

  async function reply(id: number, request: ReplyRequest, attachments: Attachment[] = []) {
    if (active.current) return;
    const controller = new AbortController();
    active.current = controller;
    setRunning(true);
    setStopping(false);
    setFailure(null);

    const key = chatKeys.messages(id);
    const update = (change: (list: Message[]) => Message[]) =>
      queryClient.setQueryData<Message[]>(key, (list) => change(list ?? []));

    const sendsMessage = request.kind === 'send' || request.kind === 'edit';
    let userSaved = !sendsMessage;
    let replySaved = false;
    let ended = false;
    let lastEventId: string | undefined;
    // Read when clicked: a message the server saved gets a new reply; one it never saved is sent again.
    const retry = () => {
      if (sendsMessage && !userSaved) {
        // The edit never reached the server: the conversation is as it was, and the message is sent anew.
        if (request.kind === 'edit') void queryClient.invalidateQueries({ queryKey: key, exact: true });
        else update((list) => list.filter((message) => !isDraft(message)));
        void reply(id, request, attachments);
      } else void reply(id, { kind: 'regenerate' });
    };

    if (request.kind === 'regenerate') update(withoutLastReplies);
    if (sendsMessage) {
      update((list) => {
        // An edit replaces the turns from the edited message on; they stay reachable through its versions.
        const edited = request.kind === 'edit' ? list.findIndex((m) => m.id === request.messageId) : -1;
        const kept = edited < 0 ? list : list.slice(0, edited);
        const draft = draftMessage(list, {
          conversationId: id,
          role: 'user',
          content: request.content.trim(),
          createdAt: new Date().toISOString(),
          attachments,
        });
        return [...kept, draft];
      });
    }

    const follow = async (current: ReplyRequest) => {
      for await (const { id: eventId, event } of streamReply(id, current, controller.signal)) {
        lastEventId = eventId ?? lastEventId;
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
    };

    try {
      try {
        await follow(request);
        if (!ended && lastEventId) throw new TypeError('The stream ended before the reply did');
      } catch (error) {
        // Once the server has begun the reply (an event came), it keeps going without us: pick it up again.
        if (!lastEventId || !isDrop(error, controller.signal)) throw error;
        await follow({ kind: 'resume', lastEventId });
      }
      if (!ended && request.kind !== 'resume')
        setFailure({ message: 'The reply was cut off before it finished.', retry });
    } catch (error) {
      if (!controller.signal.aborted) setFailure({ message: failureText(error), retry });
    } finally {
      active.current = null;
      setRunning(false);
      setStopping(false);
      // Whatever the server kept (a partial or failed reply, the previous reply after a failed regeneration,
      // a message cut off in flight, a reply that had already ended when resumed) is fetched rather than
      // guessed. A refused message changed nothing there and stays as a draft beside its error.
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

  const messages = query.data;
  const last = messages?.at(-1);

  // Opened while a reply is being written (here before a reload, or in another tab): follow it live rather
  // than show the text saved at the last checkpoint. Once per view; the replay starts from the reply's start.
  useEffect(() => {
    if (conversationId === undefined || resumed.current || last?.status !== 'streaming' || isDraft(last)) return;
    resumed.current = true;
    void reply(conversationId, { kind: 'resume' });
  });

  /** Asks the server to end the reply with what it has written; the stream then brings the saved reply. */
  async function stop() {
    if (!active.current || stopping || conversationId === undefined) return;
    setStopping(true);
    try {
      // Stop can overtake the message it stops (the reply not registered yet): ask once more a moment later.
      if (!(await stopReply(conversationId)).stopped) {
        await new Promise((resolve) => setTimeout(resolve, STOP_AGAIN_MS));
        if (active.current) await stopReply(conversationId);
      }
    } catch {
      setStopping(false);
    }
  }

  function switchVersion(messageId: number) {
    if (conversationId === undefined || running) return;
    setFailure(null);
    activate.mutate(
      { conversationId, messageId },
      { onError: (error) => setFailure({ message: failureText(error), retry: () => switchVersion(messageId) }) },
    );
  }

  const draftReply = last && isDraftReply(last) ? last : undefined;
  return {
    messages,
    isLoading: query.isPending && conversationId !== undefined,
    loadError: query.isError,
    reload: () => void query.refetch(),
    running,
    stopping,
    /** A reply was asked for and no text has come yet: the typing indicator's moment. */
    waiting: running && !draftReply?.content,
    failure,
    canSend: conversationId !== undefined && messages !== undefined && !running,
    send(content: string, attachments: Attachment[] = []) {
      if (conversationId === undefined || content.trim() === '') return;
      void reply(conversationId, { kind: 'send', content, fileIds: attachments.map((file) => file.id) }, attachments);
    },
    regenerate() {
      if (conversationId !== undefined) void reply(conversationId, { kind: 'regenerate' });
    },
    /** Sends a new version of a user message; the conversation continues from it. */
    edit(message: Message, content: string) {
      if (conversationId === undefined || content.trim() === '') return;
      void reply(conversationId, { kind: 'edit', messageId: message.id, content }, message.attachments);
    },
    stop: () => void stop(),
    /** The version switcher: shows the conversation as it went on from another version of a message. */
    switchVersion,
    switching: activate.isPending,
  };
}
