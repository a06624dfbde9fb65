import { History, Lock } from 'lucide-react';
import { Link } from 'react-router';
import type { ConversationSummary } from '@shared/contracts/chat';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { useMessages, useOlderMessages } from '@/entities/chat/api/get-messages';
import { ReadOnlyMessages } from '@/entities/chat/ui/read-only-messages';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * A conversation of the caller's with someone else's botty that is no longer shared with them: still theirs to
 * read (it stays in their History), but the botty cannot answer them any more.
 */
export function UnsharedConversation({ conversation }: { conversation: ConversationSummary }) {
  useDocumentTitle(conversation.title);
  const messages = useMessages(conversation.id);
  const older = useOlderMessages(conversation.id);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <header className="grid gap-4 border-b pb-4">
        <div className="flex min-w-0 items-center gap-3">
          <BotIcon icon={conversation.bot.icon} />
          <div className="grid min-w-0 gap-0.5">
            <h1 className="text-xl font-semibold tracking-tight break-words">{conversation.title}</h1>
            <p className="text-sm break-words text-muted-foreground">
              With <span className="font-medium text-foreground">{conversation.bot.name}</span>
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3 rounded-xl border bg-muted/50 p-3 text-sm">
          <Lock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <p className="min-w-48 flex-1">
            Its botty is no longer shared with you. You can read this conversation, but not continue it.
          </p>
          <Button asChild variant="outline" size="sm">
            <Link to="/history">
              <History aria-hidden="true" />
              Back to History
            </Link>
          </Button>
        </div>
      </header>
      {messages.data ? (
        <>
          {/* The newest messages come first (issue 26); earlier ones on asking. */}
          {messages.data.older && (
            <Button
              variant="outline"
              size="sm"
              className="mt-6"
              disabled={older.loading}
              onClick={() => void older.load()}
            >
              {older.failed ? 'Earlier messages could not be loaded. Try again' : 'Show earlier messages'}
            </Button>
          )}
          <ReadOnlyMessages messages={messages.data.messages} className="mt-6" />
        </>
      ) : (
        <div role="status" className="mt-6 grid gap-4">
          <span className="sr-only">Loading messages</span>
          <Skeleton className="h-10 w-1/2 justify-self-end rounded-2xl" />
          <Skeleton className="h-16 w-2/3 rounded-2xl" />
        </div>
      )}
    </div>
  );
}
