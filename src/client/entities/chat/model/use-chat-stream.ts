import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Attachment, ChatStreamEvent, Message } from '@shared/contracts/chat';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { chatKeys } from '@/entities/chat/api/chat-keys';
import { useActivateMessage } from '@/entities/chat/api/activate-message';
import { updateMessages, useMessages, useOlderMessages } from '@/entities/chat/api/get-messages';
import { stopReply } from '@/entities/chat/api/stop-reply';
import { toast } from '@/components/ui/use-toast';
import { type ReplyRequest, streamReply } from '@/entities/chat/api/stream-reply';
import { drawBeforeNextPaint } from '@/lib/query-client';
import { ApiError, serverMessage } from '@/lib/request';
import { frameBatch } from './frame-batch';
import { applyStreamEvent, draftMessage, isDraft, isDraftReply, withoutLastReplies } from './apply-stream-event';
import {
  failureOf,
  initialReplyState,
  isLive,
  nextRequest,
  refreshesAfter,
  type ReplyAction,
  replyMachine,
  type ReplyState,
  retryOf,
  stoppedBeforeText,
} from './reply-machine';
import { createTextStore } from './draft';
import { useFollowSupport } from './support';

export interface ChatFailure {
  message: string;
  retry: () => void;
}

/** How long to wait before asking again when Stop reached the server before the reply had started there. */
const STOP_AGAIN_MS = 400;

/** What the view shows of a reply's state: the event of each delta changes the state (its id), and none of this. */
const shownOf = (state: ReplyState) =>
  [isLive(state), isLive(state) && state.stopping, failureOf(state), stoppedBeforeText(state)] as const;
const shownAlike = (a: ReplyState, b: ReplyState) => {
  const [shownA, shownB] = [shownOf(a), shownOf(b)];
  return shownA.every((value, i) => value === shownB[i]);
};

function failureText(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? 'The server could not answer. Please try again.';
  return 'Could not reach the server. Check your connection and try again.';
}

/**
 * A conversation's messages plus the reply being streamed into them. Drafts live in the messages cache
 * itself, so the streamed text turning into the saved message is one change and never flickers. The server
 * keeps writing a reply whoever listens (decision record 0011): leaving only stops listening, a dropped stream
 * is resumed once from its last event, and a conversation opened mid-reply follows that reply live.
 */
export function useChatStream({ botId, conversationId }: { botId: number; conversationId: number | undefined }) {
  const queryClient = useQueryClient();
  const query = useMessages(conversationId);
  const messages = query.data?.messages;
  const older = useOlderMessages(conversationId);
  useFollowSupport(conversationId, messages);
  const activate = useActivateMessage();
  const [state, setState] = useState(initialReplyState);
  // The stream's loop reads the reply's state between awaits, where React's copy is a render behind.
  const machine = useRef(state);
  const running = isLive(state);
  const [versionFailure, setVersionFailure] = useState<ChatFailure | null>(null);
  const active = useRef<AbortController | null>(null);
  const [liveText] = useState(createTextStore);

  const dispatch = (action: ReplyAction) => {
    machine.current = replyMachine(machine.current, action);
    setState(machine.current);
  };

  useEffect(() => {
    if (conversationId === undefined) return;
    return () => {
      active.current?.abort();
      // Unsent drafts must not outlive the view; what the server kept is fetched on the next opening.
      updateMessages(queryClient, conversationId, (list) => list.filter((message) => !isDraft(message)));
    };
  }, [conversationId, queryClient]);

  async function reply(id: number, request: ReplyRequest, attachments: Attachment[] = []) {
    if (isLive(machine.current)) return;
    const controller = new AbortController();
    active.current = controller;
    setVersionFailure(null);
    dispatch({ type: 'start', request, attachments });

    const key = chatKeys.messages(id);
    const update = (change: (list: Message[]) => Message[]) => updateMessages(queryClient, id, change);
    // A fetch of the conversation still under way (after the last reply, or for its support check) would answer
    // with the list as it was before this request, its drafts and the reply's events since gone: it is cancelled,
    // and made again once this reply has settled.
    const fetchAgain = queryClient.isFetching({ queryKey: key, exact: true }) > 0;
    if (fetchAgain) void queryClient.cancelQueries({ queryKey: key, exact: true });

    if (request.kind === 'regenerate') update(withoutLastReplies);
    if (request.kind === 'send' || request.kind === 'edit') {
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

    // Text arriving between two frames is drawn once, in the next frame (or a frame or two later while the person
    // types): a render a token made a fast model's reply cost more than the screen shows. The machine still
    // follows every event (a resume starts after it). The reply's first text goes into the messages cache (its
    // bubble appears), the text after it into liveText, which redraws the reply's row alone (decision 0066); the
    // cache takes that text before any other event and when the stream ends.
    let text = '';
    let inCache = false;
    // Drawn before the next paint: in the frame that takes the text, and the one in which it leaves liveText.
    const cacheText = (added: string) => {
      const delta: ChatStreamEvent = { event: 'delta', data: { text: added } };
      drawBeforeNextPaint(() => update((list) => applyStreamEvent(list, delta)));
    };
    const frame = frameBatch(() => {
      // Left or cut off: the view's drafts are gone, and a late flush must not bring one back.
      if (text && !controller.signal.aborted) {
        if (inCache) liveText.set(liveText.get() + text);
        else {
          cacheText(text);
          inCache = true;
        }
      }
      text = '';
      setState((shown) => (shownAlike(shown, machine.current) ? shown : machine.current));
    });
    const settle = () => {
      frame.flushNow();
      const live = liveText.get();
      if (!live) return;
      // The row never shows it twice or not at all.
      if (!controller.signal.aborted) cacheText(live);
      liveText.set('');
    };
    for (let current: ReplyRequest | null = request; current; current = nextRequest(machine.current)) {
      try {
        for await (const { id: eventId, event } of streamReply(id, current, controller.signal)) {
          if (event.event === 'delta') {
            text += event.data.text;
            machine.current = replyMachine(machine.current, { type: 'event', id: eventId, event });
            frame.schedule();
            continue;
          }
          settle();
          update((list) => applyStreamEvent(list, event));
          // A reply replayed from its start begins again with no text.
          if (event.event === 'start') inCache = false;
          dispatch({ type: 'event', id: eventId, event });
        }
        settle();
        dispatch({ type: 'closed' });
      } catch (error) {
        settle();
        if (controller.signal.aborted) dispatch({ type: 'aborted' });
        // Anything but a refusal is taken for a network drop, worth picking the reply up again.
        else dispatch({ type: 'failed', message: failureText(error), drop: !(error instanceof ApiError) });
      }
    }

    active.current = null;
    const refresh = refreshesAfter(machine.current);
    if (refresh.messages || fetchAgain) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    if (refresh.bots) {
      void queryClient.invalidateQueries({ queryKey: botKeys.list(), exact: true });
      void queryClient.invalidateQueries({ queryKey: botKeys.detail(botId), exact: true });
    }
    void queryClient.invalidateQueries({ queryKey: chatKeys.conversations(botId), exact: true });
  }

  /** Read when clicked: a message the server saved gets a new reply; one it never saved is sent again. */
  function retry() {
    if (conversationId === undefined) return;
    const { request, attachments, resend } = retryOf(machine.current);
    if (resend) {
      // An edit that never reached the server left the conversation as it was: it is fetched, then sent anew.
      if (request.kind === 'edit')
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId), exact: true });
      else updateMessages(queryClient, conversationId, (list) => list.filter((message) => !isDraft(message)));
    }
    void reply(conversationId, request, attachments);
  }

  const last = messages?.at(-1);

  // Opened while a reply is being written or waits for a tool call's approval (here before a reload, or in another
  // tab): follow it live rather than show what was saved at the last checkpoint. Once per view; the replay starts
  // from the reply's start.
  useEffect(() => {
    if (conversationId === undefined || machine.current.joined) return;
    const writing = last?.status === 'streaming' || last?.status === 'awaiting_approval';
    if (writing && !isDraft(last)) void reply(conversationId, { kind: 'resume' });
  });

  /** Asks the server to end the reply with what it has written; the stream then brings the saved reply. */
  async function stop() {
    if (!isLive(machine.current) || machine.current.stopping || conversationId === undefined) return;
    dispatch({ type: 'stop' });
    // The reply being stopped: a message sent after it ended is another reply, which a second ask must not stop.
    const stopping = active.current;
    try {
      const result = await stopReply(conversationId);
      // The reply runs on a server out of reach: it finishes there, and the person is told why Stop did nothing.
      if (result.message) {
        toast({ title: result.message });
        dispatch({ type: 'stop-failed' });
        return;
      }
      // Stop can overtake the message it stops (the reply not registered yet): ask once more a moment later.
      if (!result.stopped) {
        await new Promise((resolve) => setTimeout(resolve, STOP_AGAIN_MS));
        if (isLive(machine.current) && active.current === stopping) await stopReply(conversationId);
      }
    } catch {
      dispatch({ type: 'stop-failed' });
    }
  }

  function switchVersion(messageId: number) {
    if (conversationId === undefined || running) return;
    dispatch({ type: 'dismiss' });
    setVersionFailure(null);
    activate.mutate(
      { conversationId, messageId },
      {
        onError: (error) => setVersionFailure({ message: failureText(error), retry: () => switchVersion(messageId) }),
      },
    );
  }

  const replyFailure = failureOf(state);
  const failure = versionFailure ?? (replyFailure === null ? null : { message: replyFailure, retry });
  const draftReply = last && isDraftReply(last) ? last : undefined;
  return {
    messages,
    /** The reply's text drawn since the messages cache last took it (LiveReplyText). */
    liveText,
    isLoading: query.isPending && conversationId !== undefined,
    loadError: query.isError,
    reload: () => void query.refetch(),
    running,
    stopping: running && state.stopping,
    /** A reply was asked for and no text has come yet: the typing indicator's moment. */
    waiting: running && !draftReply?.content,
    failure,
    /** The last question's reply was stopped before it had any text, so none was kept. */
    stoppedEarly: stoppedBeforeText(state),
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
    /** The conversation's older messages, fetched a page at a time as the reader scrolls up (issue 26). */
    older: {
      /** Some are still on the server: the list does not reach the conversation's start yet. */
      left: query.data?.older ?? false,
      ...older,
    },
  };
}
