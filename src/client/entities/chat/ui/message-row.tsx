import { RefreshCw } from 'lucide-react';
import {
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ChatBot } from '../model/chat-bot';
import type { Message } from '@shared/contracts/chat';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { CopyButton } from './copy-button';
import { FeedbackButtons } from './feedback-buttons';
import { ResearchSteps } from './research-steps';
import { sourceAnchor, SourcesList } from './sources-list';
import { UserMessage } from './user-message';
import { VersionSwitcher } from './version-switcher';
import { isDraft } from '../model/apply-stream-event';
import { useLiveText } from '../model/live-reply';
import { unsupportedMarks } from '../model/support';
import { loadMarkdown } from './load-markdown';

// The markdown code is most of the chat's weight; it loads with the first chat, not the app (its code highlighter
// loads after it, with the first code on screen: decision 0056).
const Markdown = lazy(loadMarkdown);

const BUBBLE = 'max-w-[80%] rounded-2xl px-4 py-2.5 text-[0.9375rem] break-words';
/** How long a message found, or a source cited, stays lit up. */
export const HIGHLIGHT_MS = 2000;

export function AssistantRow({ bot, children }: { bot: ChatBot; children: ReactNode }) {
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
  content,
  onCite,
}: {
  message: Message;
  /** The message's text with what has streamed since the messages cache took it (useLiveText). */
  content: string;
  onCite: (n: number) => void;
}) {
  return (
    <Suspense fallback={<p className="whitespace-pre-wrap">{content}</p>}>
      <Markdown
        citations={message.sources.map((source) => source.n)}
        onCite={onCite}
        unsupported={unsupportedMarks(message.support)}
        streaming={isDraft(message)}
        cacheId={isDraft(message) ? undefined : message.id}
      >
        {content}
      </Markdown>
    </Suspense>
  );
});

export function TypingDots() {
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
  const content = message.content + useLiveText(live);
  const hasText = content !== '';
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
          <AssistantText message={message} content={content} onCite={cite} />
        </div>
      ) : (
        live && <TypingDots />
      )}
      {message.sources.length > 0 && (hasText || !live) && (
        <SourcesList
          messageId={message.id}
          content={content}
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

/** The bot's greeting, first in the list once its start is loaded. */
export const GreetingRow = memo(function GreetingRow({ bot, greeting }: { bot: ChatBot; greeting: string }) {
  return (
    <AssistantRow bot={bot}>
      <div className={`${BUBBLE} rounded-tl-md bg-muted whitespace-pre-wrap`}>{greeting}</div>
    </AssistantRow>
  );
});

/** What a row does for its message. */
export interface RowActions {
  edit: (message: Message, content: string) => void;
  regenerate: () => void;
  switchVersion: (messageId: number) => void;
  /** Following a citation moves the list as the reader's own scrolling does. */
  citeScroll: () => void;
}

/**
 * `actions` as functions that stay the same from one render to the next, each calling the latest render's: the rows
 * are memoised, and new functions on every render would draw them all again.
 */
export function useRowActions(actions: RowActions): RowActions {
  const latest = useRef(actions);
  useLayoutEffect(() => {
    latest.current = actions;
  });
  return useMemo(
    () => ({
      edit: (message, content) => latest.current.edit(message, content),
      regenerate: () => latest.current.regenerate(),
      switchVersion: (messageId) => latest.current.switchVersion(messageId),
      citeScroll: () => latest.current.citeScroll(),
    }),
    [],
  );
}

interface MessageRowProps {
  bot: ChatBot;
  message: Message;
  /** The newest message: a finished reply can be written again. */
  last: boolean;
  /** A question followed by another question: its reply failed or was stopped. */
  unanswered: boolean;
  /** A reply is being written, or another version of one is being switched to. */
  running: boolean;
  busy: boolean;
  /** The message a search led to, lit up for a moment. */
  found: boolean;
  actions: RowActions;
}

/**
 * One message of the list. Memoised on its props: the list draws again on every scroll event, and drawing the rows
 * already on screen again (their buttons, icons, sources, with nothing changed) was much of a scroll's work on the
 * main thread once each reply's markdown was parsed only once (decision 0053).
 */
export const MessageRow = memo(function MessageRow({
  bot,
  message,
  last,
  unanswered,
  running,
  busy,
  found,
  actions,
}: MessageRowProps) {
  return (
    <div className={cn('rounded-2xl', found && 'bg-primary/10 ring-2 ring-primary')}>
      {message.role === 'user' ? (
        <>
          <UserMessage
            message={message}
            onEdit={isDraft(message) || running ? undefined : (content) => actions.edit(message, content)}
            onSwitchVersion={actions.switchVersion}
            busy={busy}
          />
          {unanswered && <p className="mt-1 text-right text-xs text-muted-foreground">No reply to this message</p>}
        </>
      ) : (
        <AssistantMessage
          bot={bot}
          message={message}
          onRegenerate={last && !running ? actions.regenerate : undefined}
          onCiteScroll={actions.citeScroll}
          onSwitchVersion={actions.switchVersion}
          busy={busy}
        />
      )}
    </div>
  );
});
