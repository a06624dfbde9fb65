import { CopyPlus, PanelLeft } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { Conversation } from '@shared/contracts/chat';
import { useBot } from '@/entities/bot/api/get-bot';
import { useUsableBot } from '@/entities/bot/api/sharing';
import { useAddCopy } from '@/entities/bot/model/use-add-copy';
import { chatBotOf, type ChatBot } from '@/entities/chat/model/chat-bot';
import { useCreateConversation } from '@/entities/chat/api/create-conversation';
import { useConversation, useConversations } from '@/entities/chat/api/get-conversations';
import { ChatPanel, FILL_WINDOW } from '@/entities/chat/ui/chat-panel';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { PageSpinner } from '@/components/ui/spinner';
import { WithTooltip } from '@/components/ui/tooltip';
import { toast } from '@/components/ui/use-toast';
import { parseId, rememberedActiveBot } from '@/entities/bot/model/active-bot';
import { ApiError, serverMessage } from '@/lib/request';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ConversationList } from './conversation-list';
import { DeleteConversationDialog } from './delete-conversation-dialog';
import { UnsharedConversation } from './unshared-conversation';

const BOT_NOT_FOUND = 'Bot not found';
const NOT_FOUND_REASON = 'It does not exist, or it is not shared with you.';

/** The chosen conversation lives in the address (`?c=`), so a reload or a shared link shows the same one. */
const CONVERSATION_PARAM = 'c';
/** A message to bring into view (`&m=`, a search hit from History). */
const MESSAGE_PARAM = 'm';

/**
 * Which conversation to show: the one the address names, trusted until the list arrives. One that is not
 * (or no longer) among the bot's conversations gives way to the most recent; with none left, nothing is
 * chosen and the panel starts a new conversation.
 */
function resolveConversation(requested: number | undefined, conversations: Conversation[] | undefined) {
  if (requested === undefined || !conversations || conversations.some((c) => c.id === requested)) return requested;
  return conversations[0]?.id;
}

/** On someone else's bot: "Add to my botties" makes the caller's own copy and shows it among theirs. */
function AddCopyButton({ bot }: { bot: ChatBot }) {
  const copy = useAddCopy();
  return (
    <WithTooltip label="Add to my botties">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Add to my botties"
        disabled={copy.isPending}
        onClick={() => copy.add({ id: bot.id })}
      >
        <CopyPlus aria-hidden="true" />
      </Button>
    </WithTooltip>
  );
}

function ChatWorkspace({ bot }: { bot: ChatBot }) {
  useDocumentTitle(`Chat with ${bot.name}`);
  const [params, setParams] = useSearchParams();
  const { data: conversations } = useConversations(bot.id);
  const create = useCreateConversation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [deleting, setDeleting] = useState<Conversation | null>(null);

  const requested = parseId(params.get(CONVERSATION_PARAM));
  const conversationId = resolveConversation(requested, conversations);

  const show = (id: number, { replace = false } = {}) => {
    setParams({ [CONVERSATION_PARAM]: String(id) }, { replace });
    setDrawerOpen(false);
  };

  // The address follows when the conversation shown is not the one it named (deleted, or not this bot's).
  useEffect(() => {
    if (conversationId !== undefined && conversationId !== requested) {
      setParams({ [CONVERSATION_PARAM]: String(conversationId) }, { replace: true });
    }
  }, [conversationId, requested, setParams]);

  const startNew = () =>
    create.mutate(
      { botId: bot.id },
      {
        onSuccess: (conversation) => show(conversation.id),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error starting conversation',
            description: serverMessage(error) ?? 'There was a problem starting a new conversation.',
          }),
      },
    );

  const list = (heading: ReactNode) => (
    <ConversationList
      botId={bot.id}
      activeId={conversationId}
      heading={heading}
      onSelect={(conversation) => show(conversation.id)}
      onNew={startNew}
      creating={create.isPending}
      onDelete={setDeleting}
    />
  );

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-4 px-3 py-3 sm:px-6 md:grid-cols-[16rem_minmax(0,1fr)] md:py-8">
      <h1 className="sr-only">Chat with {bot.name}</h1>
      <aside aria-labelledby="conversations-title" className="hidden md:block">
        <Card className="h-full overflow-hidden">
          {list(
            <h2 id="conversations-title" className="font-semibold tracking-tight">
              Conversations
            </h2>,
          )}
        </Card>
      </aside>
      <ChatPanel
        bot={bot}
        conversationId={conversationId}
        messageId={conversationId === requested ? parseId(params.get(MESSAGE_PARAM)) : undefined}
        onConversationStarted={(conversation) => show(conversation.id, { replace: true })}
        className={FILL_WINDOW}
        headerActions={
          <>
            {bot.ownerName && <AddCopyButton bot={bot} />}
            <WithTooltip label="Conversations">
              <Button
                variant="ghost"
                size="icon"
                className="md:hidden"
                aria-label="Conversations"
                onClick={() => setDrawerOpen(true)}
              >
                <PanelLeft aria-hidden="true" />
              </Button>
            </WithTooltip>
          </>
        }
      />
      <Dialog open={drawerOpen} onOpenChange={setDrawerOpen}>
        <DialogContent className="top-0 left-0 flex h-dvh max-h-dvh w-[min(20rem,85vw)] max-w-none translate-x-0 translate-y-0 flex-col gap-0 rounded-none border-y-0 border-l-0 p-0 data-[state=open]:animate-fade-in">
          <DialogDescription className="sr-only">
            Your conversations with {bot.name}, most recent first.
          </DialogDescription>
          {list(<DialogTitle className="pr-10 text-base">Conversations</DialogTitle>)}
        </DialogContent>
      </Dialog>
      <DeleteConversationDialog conversation={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/**
 * /chat/{id?} and /chat?botId= (spec §2): the bot comes from the path, else the query, else the bot whose
 * chat was opened last; with none, or one that cannot be fetched (neither the caller's nor shared with them),
 * back to /. One of the caller's own conversations with a bot no longer shared with them (`?c=`) stays
 * readable instead. The address is then made /chat/{id} so it always names its bot.
 */
export function ChatPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const botId = id !== undefined ? parseId(id) : (parseId(params.get('botId')) ?? rememberedActiveBot());
  const own = useBot(botId);
  // Someone else's bot the caller may use (shared by link or public): chatted with as a visitor.
  const shared = useUsableBot(botId, own.isError);
  const bot = own.data ?? (shared.data ? chatBotOf(shared.data) : undefined);
  const isError = own.isError && shared.isError;
  const conversation = params.get(CONVERSATION_PARAM);
  const past = useConversation(isError ? parseId(conversation) : undefined);
  const readable = past.data?.botId === botId ? past.data : undefined;
  const waitingForPast = past.isLoading;

  // The server's answer when there is no such bot for the caller (never was, deleted, or not shared with them).
  const notFound = shared.error instanceof ApiError && shared.error.status === 404;

  useEffect(() => {
    if (botId === undefined) {
      // A path that names no bot at all (`/chat/abc`) says so; `/chat` with no bot remembered just goes home.
      if (id !== undefined) toast({ variant: 'destructive', title: BOT_NOT_FOUND, description: NOT_FOUND_REASON });
      void navigate('/', { replace: true });
    } else if (isError) {
      // A readable past conversation is no failure: its page says why it cannot be continued.
      if (waitingForPast || readable) return;
      // Spec §8: a bot that cannot be fetched says so before leaving; the usual reason is named as such.
      toast({
        variant: 'destructive',
        title: notFound ? BOT_NOT_FOUND : 'Failed to fetch bot',
        description: notFound ? NOT_FOUND_REASON : 'Something went wrong. Please try again.',
      });
      void navigate('/', { replace: true });
    } else if (id === undefined) {
      void navigate(
        { pathname: `/chat/${botId}`, search: conversation ? `?${CONVERSATION_PARAM}=${conversation}` : '' },
        { replace: true },
      );
    }
  }, [botId, id, isError, notFound, conversation, navigate, readable, waitingForPast]);

  if (isError && readable) return <UnsharedConversation conversation={readable} />;
  if (!bot || id === undefined) return <PageSpinner />;
  return <ChatWorkspace key={bot.id} bot={bot} />;
}
