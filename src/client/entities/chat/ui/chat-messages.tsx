import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertCircle, ArrowDown, RefreshCw } from 'lucide-react';
import {
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
} from 'react';
import type { ChatBot } from '../model/chat-bot';
import { LIST_LIMIT_MAX, type Message } from '@shared/contracts/chat';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { CopyButton } from './copy-button';
import { FeedbackButtons } from './feedback-buttons';
import { ResearchSteps } from './research-steps';
import { sourceAnchor, SourcesList } from './sources-list';
import { UserMessage } from './user-message';
import { VersionSwitcher } from './version-switcher';
import { isDraft, isDraftReply, rowKey } from '../model/apply-stream-event';
import { unsupportedMarks } from '../model/support';
import type { useChatStream } from '../model/use-chat-stream';
import type { useFollowLatest } from './use-follow-latest';
import { loadMarkdown } from './load-markdown';

// The markdown and highlighting code is most of the chat's weight; it loads with the first chat, not the app.
const Markdown = lazy(loadMarkdown);

const BUBBLE = 'max-w-[80%] rounded-2xl px-4 py-2.5 text-[0.9375rem] break-words';
/** A first guess at a message's height; each is measured once drawn. */
const ESTIMATED_ROW_PX = 96;
/**
 * Rows drawn beyond each edge of the view, so a scroll finds them ready. When messages arrive, only the view's rows
 * (and one more) are drawn first; the rest follow in React's background rendering, which yields to the browser,
 * so the conversation is on screen without waiting for the markdown of rows nobody sees yet.
 */
const OVERSCAN = 6;
const FIRST_OVERSCAN = 1;
const HIGHLIGHT_MS = 2000;
/** Screens left above the view when the page before the first loaded message is fetched. */
const LOAD_AHEAD_SCREENS = 3;
/** The greeting is the list's first row once its start is loaded: it arrives with the oldest page, in place. */
const GREETING_KEY = 'greeting';

function AssistantRow({ bot, children }: { bot: ChatBot; children: ReactNode }) {
  return (
    <div className="flex items-start gap-2.5">
      <BotIcon icon={bot.icon} size="sm" className="mt-0.5" />
      <div className="flex min-w-0 flex-1 flex-col items-start">{children}</div>
    </div>
  );
}

/**
 * Memoised: the list re-renders on every scroll frame, and parsing each visible reply's markdown again made
 * scrolling a long conversation stutter. A message object only changes when its text does.
 */
const AssistantText = memo(function AssistantText({
  message,
  onCite,
}: {
  message: Message;
  onCite: (n: number) => void;
}) {
  return (
    <Suspense fallback={<p className="whitespace-pre-wrap">{message.content}</p>}>
      <Markdown
        citations={message.sources.map((source) => source.n)}
        onCite={onCite}
        unsupported={unsupportedMarks(message.support)}
        streaming={isDraft(message)}
        cacheId={isDraft(message) ? undefined : message.id}
      >
        {message.content}
      </Markdown>
    </Suspense>
  );
});

function TypingDots() {
  return (
    <div
      role="status"
      aria-label="Botty is typing"
      className="flex h-10 items-center gap-1 rounded-2xl rounded-tl-md bg-muted px-4"
    >
      {['[animation-delay:-0.3s]', '[animation-delay:-0.15s]', ''].map((delay) => (
        <span key={delay} className={`size-2 animate-bounce rounded-full bg-muted-foreground/70 ${delay}`} />
      ))}
    </div>
  );
}

const STATUS_NOTE: Record<Message['status'], string | null> = {
  complete: null,
  // Still being written elsewhere (another tab): the text so far, without a note.
  streaming: null,
  awaiting_approval: '(waiting for your approval)',
  stopped: '(stopped)',
  failed: '(interrupted by an error)',
  interrupted: '(interrupted)',
};

/** Scrolls a reply's source into view and lights it up for a moment. */
function useCitations(messageId: number, beforeScroll: () => void) {
  const [highlighted, setHighlighted] = useState<number | null>(null);
  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);
  const cite = useCallback(
    (n: number) => {
      const target = document.getElementById(sourceAnchor(messageId, n));
      if (!target) return;
      const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      beforeScroll();
      target.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
      target.focus({ preventScroll: true });
      setHighlighted(n);
    },
    [messageId, beforeScroll],
  );
  return { highlighted, cite };
}

interface AssistantMessageProps {
  bot: ChatBot;
  message: Message;
  onRegenerate?: () => void;
  /** Following a citation moves the list as the reader's own scrolling does. */
  onCiteScroll: () => void;
  /** A regenerated reply's version switcher shows the conversation with another of its replies. */
  onSwitchVersion: (messageId: number) => void;
  busy: boolean;
}

function AssistantMessage({ bot, message, onRegenerate, onCiteScroll, onSwitchVersion, busy }: AssistantMessageProps) {
  const { highlighted, cite } = useCitations(message.id, onCiteScroll);
  const note = STATUS_NOTE[message.status];
  const live = isDraft(message);
  const hasText = message.content !== '';
  // A reply cut short gets a Retry in words; a finished one only the quieter Regenerate.
  const cutShort = message.status === 'interrupted' || message.status === 'failed';
  return (
    <AssistantRow bot={bot}>
      {message.steps.length > 0 && (
        <ResearchSteps
          steps={message.steps}
          sources={message.sources}
          live={live && !hasText}
          conversationId={message.conversationId}
        />
      )}
      {hasText ? (
        <div className={`${BUBBLE} min-w-0 rounded-tl-md bg-muted`}>
          <AssistantText message={message} onCite={cite} />
        </div>
      ) : (
        live && <TypingDots />
      )}
      {message.sources.length > 0 && (hasText || !live) && (
        <SourcesList
          messageId={message.id}
          content={message.content}
          sources={message.sources}
          support={message.support}
          highlighted={highlighted}
        />
      )}
      {!live && (
        <div className="mt-0.5 flex flex-wrap items-center gap-0.5 text-xs text-muted-foreground">
          <CopyButton label="Copy message" text={() => message.content} />
          <FeedbackButtons conversationId={message.conversationId} messageId={message.id} />
          {message.versions && message.versions.count > 1 && (
            <VersionSwitcher versions={message.versions} onSwitch={onSwitchVersion} disabled={busy} />
          )}
          {onRegenerate &&
            (cutShort ? (
              <Button variant="outline" size="sm" className="ml-1 md:h-8" onClick={onRegenerate}>
                <RefreshCw aria-hidden="true" />
                Retry
              </Button>
            ) : (
              <Button variant="quiet" size="icon-sm" aria-label="Regenerate" title="Regenerate" onClick={onRegenerate}>
                <RefreshCw aria-hidden="true" />
              </Button>
            ))}
          {note && <span className="ml-1">{note}</span>}
          {message.model && (
            <span className="ml-1 max-w-full truncate" title={message.model}>
              <span className="sr-only">Written by </span>
              {message.model}
            </span>
          )}
        </div>
      )}
    </AssistantRow>
  );
}

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
                    className="absolute top-0 left-0 w-full pb-4"
                    style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
                  >
                    {!message ? (
                      <AssistantRow bot={bot}>
                        <div className={`${BUBBLE} rounded-tl-md bg-muted whitespace-pre-wrap`}>{greeting}</div>
                      </AssistantRow>
                    ) : (
                      <div className={cn('rounded-2xl', found === message.id && 'bg-primary/10 ring-2 ring-primary')}>
                        {message.role === 'user' ? (
                          <>
                            <UserMessage
                              message={message}
                              onEdit={
                                isDraft(message) || chat.running ? undefined : (content) => edit(message, content)
                              }
                              onSwitchVersion={chat.switchVersion}
                              busy={chat.running || chat.switching}
                            />
                            {/* Its reply failed or was stopped, and the person asked something else after it. */}
                            {messages[row.index - lead + 1]?.role === 'user' && (
                              <p className="mt-1 text-right text-xs text-muted-foreground">No reply to this message</p>
                            )}
                          </>
                        ) : (
                          <AssistantMessage
                            bot={bot}
                            message={message}
                            onRegenerate={message === last && !chat.running ? regenerate : undefined}
                            onCiteScroll={follow.readerScrolls}
                            onSwitchVersion={chat.switchVersion}
                            busy={chat.running || chat.switching}
                          />
                        )}
                      </div>
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
