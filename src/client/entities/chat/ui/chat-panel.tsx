import { Info, Maximize2, PlugZap, TriangleAlert } from 'lucide-react';
import { type CSSProperties, type ReactNode, useEffect, useEffectEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { greetingFor } from '@/entities/chat/model/greeting';
import type { ChatBot } from '../model/chat-bot';
import type { Conversation } from '@shared/contracts/chat';
import { useChatStatus } from '@/entities/chat/api/get-chat-status';
import { useLatestModel } from '@/entities/chat/api/get-messages';
import { useModels } from '@/entities/model/api/get-models';
import { isModelAvailable, MODEL_UNAVAILABLE } from '@/entities/model/model/model-choice';
import { Button } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';
import { toast } from '@/components/ui/use-toast';
import { rememberActiveBot } from '@/entities/bot/model/active-bot';
import { cn } from '@/lib/cn';
import { ChatComposer } from './chat-composer';
import { ChatHeader } from './chat-header';
import { ShareConversationButton } from './share-dialog';
import { ChatMessages } from './chat-messages';
import { LiveReplyText } from '../model/live-reply';
import { useChatStream } from '../model/use-chat-stream';
import { useFollowLatest } from './use-follow-latest';
import { useStartConversation } from '../model/use-start-conversation';
import { type Draft, useDraft } from '../model/draft';
import { attachmentAccept, useAttachments } from '../model/use-attachments';
import { startersOf } from '../model/starters';
import { sortAttachable } from '../model/attachable';

/** Spec §9. */
const CHAT_PANEL_HEIGHT_PX = 700;

/**
 * For a panel under a page's heading (Home, the dashboard): shorter than 700 px where the window is, so the page
 * ends with the panel on the first screen: the window less the navigation bar (4rem and its border), the page's
 * padding (2 × 2.5rem), its heading (4rem) and the gap under it (1.5rem); at 1280×800, 567 px from y = 193.
 */
export const FIT_UNDER_HEADING = 'md:h-[min(var(--chat-height),calc(100dvh-14.5rem-1px))]';

/**
 * For a panel that is the page (the full chat): the window's height less the navigation bar (4rem and its border)
 * and the page's padding, at most 700 px, so the page never scrolls behind the panel's own (1280×800: 671 px).
 */
export const FILL_WINDOW = 'h-[calc(100dvh-4rem-1px-1.5rem)] md:h-[min(var(--chat-height),calc(100dvh-4rem-1px-4rem))]';

export interface ChatPanelProps {
  bot: ChatBot;
  /** An existing conversation to show; without one the panel starts a new conversation with the bot. */
  conversationId?: number;
  /** A message of that conversation to bring into view when it opens (a search hit), however far back. */
  messageId?: number;
  onConversationStarted?: (conversation: Conversation) => void;
  /** Defaults to going to / (spec §2). */
  onClose?: () => void;
  /** Adds a link to this conversation on the full chat page. */
  fullChatLink?: boolean;
  headerActions?: ReactNode;
  className?: string;
}

function Notice({
  icon: Icon,
  tone = 'info',
  children,
}: {
  icon: typeof Info;
  tone?: 'info' | 'error';
  children: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'note'}
      className={cn(
        'flex items-center gap-2 border-b px-4 py-2 text-sm',
        tone === 'error' ? 'bg-error/5 text-error' : 'bg-accent/60 text-accent-foreground',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">{children}</div>
    </div>
  );
}

/** Issue 23: a bot whose model was disabled or removed answers with the default, and its owner is told. */
function UnavailableModelNotice({ modelId }: { modelId: string }) {
  const { data: list } = useModels();
  if (!list || isModelAvailable(list, modelId)) return null;
  return (
    <Notice icon={TriangleAlert}>
      <span>{MODEL_UNAVAILABLE}</span>
    </Notice>
  );
}

interface ConversationViewProps {
  bot: ChatBot;
  conversationId: number | undefined;
  draft: Draft;
  messageId?: number;
  /** The new conversation is still being started: a message sent meanwhile waits for it. */
  starting: boolean;
  /** A message was sent while the conversation was starting, and goes as soon as it can. */
  sendWhenReady: boolean;
  onSendWhenReady: (waiting: boolean) => void;
}

/** One conversation's messages and input; remounted per conversation so no reply state leaks across. */
function ConversationView({
  bot,
  conversationId,
  draft,
  messageId,
  starting,
  sendWhenReady,
  onSendWhenReady,
}: ConversationViewProps) {
  const chat = useChatStream({ botId: bot.id, conversationId });
  const follow = useFollowLatest();
  const attachments = useAttachments(conversationId);
  const greeting = bot.config.greeting?.trim() || greetingFor(bot);
  // Starting, or its (empty) messages on their way: what a person who types at once and presses Enter meets.
  const preparing =
    !chat.running && (starting || (conversationId !== undefined && chat.messages === undefined && !chat.loadError));

  const send = () => {
    if (!chat.canSend) {
      onSendWhenReady(true);
      return;
    }
    chat.send(draft.get(), attachments.ready);
    draft.set('');
    attachments.clear();
    follow.jumpToLatest();
  };
  const sendWaiting = useEffectEvent(() => {
    onSendWhenReady(false);
    if (draft.get().trim() !== '') send();
  });
  useEffect(() => {
    if (sendWhenReady && chat.canSend) sendWaiting();
  }, [sendWhenReady, chat.canSend]);

  return (
    <>
      <LiveReplyText value={chat.liveText}>
        <ChatMessages
          bot={bot}
          greeting={greeting}
          starters={bot.active ? startersOf(bot) : []}
          onStarter={(starter) => {
            chat.send(starter);
            follow.jumpToLatest();
          }}
          chat={chat}
          follow={follow}
          target={messageId}
        />
      </LiveReplyText>
      <ChatComposer
        attachments={{
          accept: attachmentAccept(bot.capabilities),
          items: attachments.items,
          uploading: attachments.uploading,
          onAdd: (files) => {
            const { accepted, reasons } = sortAttachable(files, bot);
            if (reasons.length > 0) toast({ title: 'Not attached', description: reasons.join(' ') });
            attachments.add(accepted);
          },
          onRemove: attachments.remove,
        }}
        draft={draft}
        onSend={send}
        onStop={chat.stop}
        canSend={chat.canSend && bot.active}
        sendSoon={preparing && bot.active}
        running={chat.running}
        stopping={chat.stopping}
      />
    </>
  );
}

/**
 * The chat with one bot (spec §2 Chat panel): header, greeting, messages streamed in as markdown, input.
 * Used on its own page, and in place on the dashboard and the home screen.
 */
export function ChatPanel({
  bot,
  conversationId: chosenId,
  messageId,
  onConversationStarted,
  onClose,
  fullChatLink = false,
  headerActions,
  className,
}: ChatPanelProps) {
  const navigate = useNavigate();
  const conversation = useStartConversation(bot, chosenId, onConversationStarted);
  const { data: status } = useChatStatus();
  // From the messages the conversation shows (one query): the header names the model of the latest reply.
  const latestModel = useLatestModel(conversation.conversationId);
  // Kept here, above the per-conversation view, so a draft survives the conversation arriving, and so does a
  // message sent before it had.
  const draft = useDraft();
  const [sendWhenReady, setSendWhenReady] = useState(false);

  useEffect(() => rememberActiveBot(bot.id), [bot.id]);

  const fullChatHref = `/chat/${bot.id}${conversation.conversationId ? `?c=${conversation.conversationId}` : ''}`;

  return (
    <section
      aria-label={`Chat with ${bot.name}`}
      style={{ '--chat-height': `${CHAT_PANEL_HEIGHT_PX}px` } as CSSProperties}
      className={cn(
        'flex h-[calc(100dvh-5rem)] min-h-96 flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs md:h-(--chat-height)',
        className,
      )}
    >
      <ChatHeader
        bot={bot}
        onClose={onClose ?? (() => void navigate('/'))}
        model={latestModel}
        actions={
          <>
            {headerActions}
            {conversation.conversationId !== undefined && (
              <ShareConversationButton conversationId={conversation.conversationId} />
            )}
            {fullChatLink && (
              <WithTooltip label="Open full chat">
                <Button asChild variant="ghost" size="icon">
                  <Link to={fullChatHref} aria-label="Open full chat">
                    <Maximize2 aria-hidden="true" />
                  </Link>
                </Button>
              </WithTooltip>
            )}
          </>
        }
      />
      {status?.offline && (
        <Notice icon={PlugZap}>No language model is connected — replies explain how to connect one.</Notice>
      )}
      {!bot.ownerName && bot.config.model && <UnavailableModelNotice modelId={bot.config.model} />}
      {!bot.active && (
        <Notice icon={Info}>This botty is inactive. Activate it on the dashboard to chat with it.</Notice>
      )}
      {conversation.error && (
        <Notice icon={Info} tone="error">
          <span>{conversation.error}</span>
          <Button variant="outline" size="sm" onClick={conversation.retry}>
            Try again
          </Button>
        </Notice>
      )}
      <ConversationView
        key={conversation.conversationId ?? 'new'}
        bot={bot}
        conversationId={conversation.conversationId}
        draft={draft}
        messageId={conversation.conversationId === chosenId ? messageId : undefined}
        starting={conversation.conversationId === undefined && bot.active && !conversation.error}
        sendWhenReady={sendWhenReady}
        onSendWhenReady={setSendWhenReady}
      />
    </section>
  );
}
