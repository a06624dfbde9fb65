import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertCircle, ArrowDown, RefreshCw } from 'lucide-react';
import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import type { ChatBot } from '../model/chat-bot';
import { LIST_LIMIT_MAX } from '@shared/constants';
import type { Message } from '@shared/contracts/chat';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { isDraft, isDraftReply, rowKey } from '../model/apply-stream-event';
import type { useChatStream } from '../model/use-chat-stream';
import { DrawnLater } from './drawn-later';
import { AssistantRow, GreetingRow, HIGHLIGHT_MS, MessageRow, TypingDots, useRowActions } from './message-row';
import type { useFollowLatest } from './use-follow-latest';

/** The space under each row, part of its measured height. */
const ROW_GAP_PX = 16;
/** A first guess at a message's height; each is measured once drawn. */
const ESTIMATED_ROW_PX = 96;
/**
 * Rows drawn beyond each edge of the view, so a scroll finds them ready. When messages arrive, only the view's rows
 * (and one more) are drawn first; the rest follow in React's background rendering, which yields to the browser,
 * so the conversation is on screen without waiting for the markdown of rows nobody sees yet.
 */
const OVERSCAN = 6;
const FIRST_OVERSCAN = 1;
/** Screens left above the view when the page before the first loaded message is fetched. */
const LOAD_AHEAD_SCREENS = 3;
/** The greeting is the list's first row once its start is loaded: it arrives with the oldest page, in place. */
const GREETING_KEY = 'greeting';

/** `alert` for what just went wrong; a state found on opening the conversation is only shown. */
function Problem({ message, onRetry, alert = true }: { message: string; onRetry: () => void; alert?: boolean }) {
  return (
    <div
      role={alert ? 'alert' : undefined}
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-error/30 bg-error/5 px-3 py-2 text-sm text-error"
    >
      <AlertCircle className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 flex-1">{message}</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCw aria-hidden="true" />
        Retry
      </Button>
    </div>
  );
}

/** Stop came before the model wrote anything, so there is no reply to mark "(stopped)": the question is. */
function Stopped({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="status" className="ml-10 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-muted-foreground">
      <span>Stopped before a reply was written.</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCw aria-hidden="true" />
        Retry
      </Button>
    </div>
  );
}

function LoadingMessages() {
  return (
    <div role="status" className="flex flex-col gap-4">
      <span className="sr-only">Loading messages</span>
      <Skeleton className="h-10 w-1/2 self-end rounded-2xl" />
      <Skeleton className="ml-10 h-16 w-2/3 rounded-2xl" />
    </div>
  );
}

/** Over the top of the list while an older page loads, or with Retry when it could not. */
function OlderMessagesStatus({ older }: { older: ReturnType<typeof useChatStream>['older'] }) {
  if (!older.loading && !older.failed) return null;
  return (
    <div className="absolute top-2 left-1/2 z-10 -translate-x-1/2">
      {older.failed ? (
        <div role="alert" className="flex items-center gap-2 rounded-full border bg-card px-3 py-1 text-sm shadow-md">
          <span>Earlier messages could not be loaded.</span>
          <Button variant="outline" size="sm" onClick={() => void older.load()}>
            <RefreshCw aria-hidden="true" />
            Retry
          </Button>
        </div>
      ) : (
        <div role="status" className="rounded-full border bg-card px-3 py-1 text-sm text-muted-foreground shadow-md">
          Loading earlier messages…
        </div>
      )}
    </div>
  );
}

/** Example questions under the greeting of an empty conversation; choosing one sends it. */
function Starters({
  starters,
  onPick,
  disabled,
}: {
  starters: string[];
  onPick: (text: string) => void;
  disabled: boolean;
}) {
  return (
    <ul aria-label="Suggested questions" className="ml-10 flex flex-wrap gap-2">
      {starters.map((starter) => (
        <li key={starter} className="max-w-full min-w-0">
          <Button
            variant="outline"
            size="sm"
            disabled={disabled}
            className="h-auto min-h-11 max-w-full py-1.5 text-left sm:min-h-0 whitespace-normal [overflow-wrap:anywhere]"
            onClick={() => onPick(starter)}
          >
            {starter}
          </Button>
        </li>
      ))}
    </ul>
  );
}

interface ChatMessagesProps {
  bot: ChatBot;
  greeting: string;
  starters: string[];
  onStarter: (text: string) => void;
  chat: ReturnType<typeof useChatStream>;
  follow: ReturnType<typeof useFollowLatest>;
  /** A message to bring into view once, however far back (a search hit): older pages are fetched up to it. */
  target?: number;
}

/**
 * Brings message `target` into view once: the pages before the loaded ones are fetched (the largest the API
 * gives) until it is among them, then it is scrolled to the middle and lit up for a moment. A message no longer
 * on the conversation's branch is given up once the start is reached.
 */
function useShowMessage(
  target: number | undefined,
  chat: ReturnType<typeof useChatStream>,
  show: (index: number) => void,
): number | null {
  const sought = useRef<number | undefined>(undefined);
  const [found, setFound] = useState<number | null>(null);
  useEffect(() => {
    sought.current = target;
  }, [target]);
  const { messages } = chat;
  const { left, failed, load } = chat.older;
  useEffect(() => {
    if (sought.current === undefined || !messages) return;
    const index = messages.findIndex((message) => message.id === sought.current);
    if (index >= 0) {
      setFound(sought.current);
      sought.current = undefined;
      show(index);
    } else if (!left) sought.current = undefined;
    else if (!failed) void load(LIST_LIMIT_MAX);
    // `target` too: the same conversation asked to show another message seeks again.
  }, [target, messages, left, failed, load, show]);
  useEffect(() => {
    if (found === null) return;
    const timer = setTimeout(() => setFound(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [found]);
  return found;
}

/**
 * The greeting, the conversation, and whatever is happening to its newest reply. Only the messages in view
 * (and a few around) are drawn, so a conversation of a thousand messages opens and scrolls like a short one.
 */
export function ChatMessages({ bot, greeting, starters, onStarter, chat, follow, target }: ChatMessagesProps) {
  const messages = chat.messages ?? [];
  const last = messages.at(-1);
  const lastSaved = messages.findLast((message) => !isDraft(message));
  // A question whose reply never came (the model failed, or the page closed first) can still be answered.
  const unanswered = !chat.running && !chat.failure && lastSaved?.role === 'user' && last === lastSaved;
  const listRef = useRef<HTMLDivElement>(null);
  // Whatever starts a new reply brings it into view, as sending does.
  const edit = (message: Message, content: string) => {
    chat.edit(message, content);
    follow.jumpToLatest();
  };
  const regenerate = () => {
    chat.regenerate();
    follow.jumpToLatest();
  };
  const actions = useRowActions({
    edit,
    regenerate,
    switchVersion: chat.switchVersion,
    citeScroll: follow.readerScrolls,
  });

  // The greeting opens the conversation, so it leads the list only once the list reaches back to the start.
  const lead = chat.older.left || chat.isLoading ? 0 : 1;
  const overscan = useDeferredValue(chat.isLoading ? FIRST_OVERSCAN : OVERSCAN, FIRST_OVERSCAN);
  const virtualizer = useVirtualizer({
    count: messages.length + lead,
    getScrollElement: () => follow.scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => {
      const message = index < lead ? undefined : messages[index - lead];
      return message ? rowKey(message) : index < lead ? GREETING_KEY : index;
    },
    overscan,
    scrollMargin: listRef.current?.offsetTop ?? 0,
    // Older messages put in front keep the ones on screen where they are (the row at the top is the anchor).
    anchorTo: 'end',
    // Following the newest message is useFollowLatest's alone. The virtualiser's own pinning at the end moves the
    // list from the scroll offset it last heard of, so a row growing between a wheel turn and its scroll event
    // put the reader back at the bottom (a reader scrolling up during a reply was pulled down): never "at end".
    scrollEndThreshold: -1,
  });

  const { letGo } = follow;
  const show = useCallback(
    (index: number) => {
      letGo();
      virtualizer.scrollToIndex(index + lead, { align: 'center' });
    },
    [letGo, virtualizer, lead],
  );
  const found = useShowMessage(target, chat, show);

  // Scrolled near the first loaded message, the page before it is fetched. On scrolling only: the list opens at
  // the top for a moment before it is taken to its newest message.
  const onScroll = () => {
    follow.onScroll();
    const scroller = follow.scrollRef.current;
    const { left, failed, load } = chat.older;
    if (scroller && left && !failed && scroller.scrollTop < LOAD_AHEAD_SCREENS * scroller.clientHeight) void load();
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={follow.scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label="Messages"
        aria-busy={chat.running}
        tabIndex={0}
        className="relative h-full overflow-x-hidden overflow-y-auto focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset"
      >
        <div ref={follow.contentRef} className="mx-auto flex max-w-3xl flex-col gap-4 px-3 py-4 sm:px-5">
          {chat.isLoading && <LoadingMessages />}
          {!chat.isLoading && (
            <div ref={listRef} className="relative -mb-4 w-full" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((row) => {
                const message = messages[row.index - lead];
                return (
                  <div
                    key={row.key}
                    data-index={row.index}
                    ref={virtualizer.measureElement}
                    className="absolute top-0 left-0 w-full"
                    style={{
                      transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                      paddingBottom: ROW_GAP_PX,
                    }}
                  >
                    {!message ? (
                      <GreetingRow bot={bot} greeting={greeting} />
                    ) : (
                      // Read back from further up, rows enter the view while the reader scrolls: their content is
                      // drawn in React's background rendering, not within the scroll event (decision 0053).
                      <DrawnLater later={follow.showJump} heightPx={row.size - ROW_GAP_PX}>
                        <MessageRow
                          bot={bot}
                          message={message}
                          last={message === last}
                          // Its reply failed or was stopped, and the person asked something else after it.
                          unanswered={message.role === 'user' && messages[row.index - lead + 1]?.role === 'user'}
                          running={chat.running}
                          busy={chat.running || chat.switching}
                          found={found === message.id}
                          actions={actions}
                        />
                      </DrawnLater>
                    )}
                  </div>
                );
              })}
            </div>
          )}
          {chat.messages?.length === 0 && starters.length > 0 && (
            <Starters starters={starters} onPick={onStarter} disabled={!chat.canSend} />
          )}
          {chat.loadError && <Problem message="The messages could not be loaded." onRetry={chat.reload} />}
          {chat.waiting && !(last && isDraftReply(last)) && (
            <AssistantRow bot={bot}>
              <TypingDots />
            </AssistantRow>
          )}
          {chat.failure && <Problem message={chat.failure.message} onRetry={chat.failure.retry} />}
          {unanswered &&
            (chat.stoppedEarly ? (
              <Stopped onRetry={regenerate} />
            ) : (
              <Problem message="This message has no reply yet." onRetry={regenerate} alert={false} />
            ))}
        </div>
      </div>
      <OlderMessagesStatus older={chat.older} />
      {follow.showJump && (
        <Button
          variant="outline"
          size="sm"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
          onClick={follow.jumpToLatest}
        >
          <ArrowDown aria-hidden="true" />
          Jump to latest
        </Button>
      )}
    </div>
  );
}
