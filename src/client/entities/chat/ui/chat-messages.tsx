import { AlertCircle, ArrowDown, RefreshCw } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { Bot } from '@shared/contracts/bots';
import type { Message } from '@shared/contracts/chat';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { CopyButton } from './copy-button';
import { isDraft } from '../model/apply-stream-event';
import type { useChatStream } from '../model/use-chat-stream';
import type { useFollowLatest } from './use-follow-latest';

// The markdown and highlighting code is most of the chat's weight; it loads with the first chat, not the app.
const Markdown = lazy(() => import('./markdown'));

const BUBBLE = 'max-w-[80%] rounded-2xl px-4 py-2.5 text-[0.9375rem] break-words';

function AssistantRow({ bot, children }: { bot: Bot; children: ReactNode }) {
  return (
    <div className="flex items-start gap-2.5">
      <BotIcon icon={bot.icon} size="sm" className="mt-0.5" />
      <div className="flex min-w-0 flex-1 flex-col items-start">{children}</div>
    </div>
  );
}

function AssistantText({ content }: { content: string }) {
  return (
    <Suspense fallback={<p className="whitespace-pre-wrap">{content}</p>}>
      <Markdown>{content}</Markdown>
    </Suspense>
  );
}

const STATUS_NOTE: Record<Message['status'], string | null> = {
  complete: null,
  // Still being written elsewhere (another tab): the text so far, without a note.
  streaming: null,
  stopped: '(stopped)',
  failed: '(interrupted by an error)',
  interrupted: '(interrupted)',
};

function AssistantMessage({ bot, message, onRegenerate }: { bot: Bot; message: Message; onRegenerate?: () => void }) {
  const note = STATUS_NOTE[message.status];
  return (
    <AssistantRow bot={bot}>
      <div className={`${BUBBLE} rounded-tl-md bg-muted`}>
        <AssistantText content={message.content} />
      </div>
      {!isDraft(message) && (
        <div className="mt-0.5 flex items-center gap-0.5 text-xs text-muted-foreground">
          <CopyButton label="Copy message" text={() => message.content} />
          {onRegenerate && (
            <Button
              variant="ghost"
              size="icon"
              className="size-10 text-muted-foreground hover:text-foreground md:size-8"
              aria-label="Regenerate"
              title="Regenerate"
              onClick={onRegenerate}
            >
              <RefreshCw aria-hidden="true" />
            </Button>
          )}
          {note && <span className="ml-1">{note}</span>}
        </div>
      )}
    </AssistantRow>
  );
}

function UserMessage({ message }: { message: Message }) {
  return (
    <div className={`${BUBBLE} self-end rounded-tr-md bg-primary whitespace-pre-wrap text-primary-foreground`}>
      {message.content}
    </div>
  );
}

function TypingIndicator({ bot }: { bot: Bot }) {
  return (
    <AssistantRow bot={bot}>
      <div
        role="status"
        aria-label="Botty is typing"
        className="flex h-10 items-center gap-1 rounded-2xl rounded-tl-md bg-muted px-4"
      >
        {['[animation-delay:-0.3s]', '[animation-delay:-0.15s]', ''].map((delay) => (
          <span key={delay} className={`size-2 animate-bounce rounded-full bg-muted-foreground/70 ${delay}`} />
        ))}
      </div>
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

function LoadingMessages() {
  return (
    <div role="status" className="flex flex-col gap-4">
      <span className="sr-only">Loading messages</span>
      <Skeleton className="h-10 w-1/2 self-end rounded-2xl" />
      <Skeleton className="ml-10 h-16 w-2/3 rounded-2xl" />
    </div>
  );
}

interface ChatMessagesProps {
  bot: Bot;
  greeting: string;
  chat: ReturnType<typeof useChatStream>;
  follow: ReturnType<typeof useFollowLatest>;
}

/** The greeting, the conversation, and whatever is happening to its newest reply. */
export function ChatMessages({ bot, greeting, chat, follow }: ChatMessagesProps) {
  const messages = chat.messages ?? [];
  const last = messages.at(-1);
  const lastSaved = messages.findLast((message) => !isDraft(message));
  // A question whose reply never came (the model failed, or the page closed first) can still be answered.
  const unanswered = !chat.running && !chat.failure && lastSaved?.role === 'user' && last === lastSaved;

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={follow.scrollRef}
        onScroll={follow.onScroll}
        role="log"
        aria-label="Messages"
        aria-busy={chat.running}
        tabIndex={0}
        className="h-full overflow-y-auto focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset"
      >
        <div ref={follow.contentRef} className="mx-auto flex max-w-3xl flex-col gap-4 px-3 py-4 sm:px-5">
          <AssistantRow bot={bot}>
            <div className={`${BUBBLE} rounded-tl-md bg-muted whitespace-pre-wrap`}>{greeting}</div>
          </AssistantRow>
          {chat.isLoading && <LoadingMessages />}
          {chat.loadError && <Problem message="The messages could not be loaded." onRetry={chat.reload} />}
          {messages.map((message) =>
            message.role === 'user' ? (
              <UserMessage key={message.id} message={message} />
            ) : (
              <AssistantMessage
                key={message.id}
                bot={bot}
                message={message}
                onRegenerate={message === last && !chat.running ? chat.regenerate : undefined}
              />
            ),
          )}
          {chat.waiting && <TypingIndicator bot={bot} />}
          {chat.failure && <Problem message={chat.failure.message} onRetry={chat.failure.retry} />}
          {unanswered && <Problem message="This message has no reply yet." onRetry={chat.regenerate} alert={false} />}
        </div>
      </div>
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
