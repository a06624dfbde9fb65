import { Link2Off } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { ReadOnlyMessages } from '@/entities/chat/ui/read-only-messages';
import { useSnapshot } from '@/features/shared-conversation/api/get-snapshot';
import { getAuthToken } from '@/lib/storage';
import { useDocumentTitle } from '@/lib/use-document-title';

/** A snapshot is for the people given its link: search engines are asked to leave it out while it is shown. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

function Unavailable() {
  return (
    <div className="mx-auto flex w-full max-w-lg flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Link2Off className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-semibold tracking-tight">This shared conversation is not available</h1>
      <p className="text-muted-foreground">The link does not exist, has expired or was revoked by its owner.</p>
      <Button asChild>
        <Link to="/">Go to the home page</Link>
      </Button>
    </div>
  );
}

/** `/s/:token`: a conversation someone shared, read-only, for anyone with the link (no sign-in). */
export function SnapshotPage() {
  const { token = '' } = useParams();
  const snapshot = useSnapshot(token);
  useNoIndex();
  useDocumentTitle(snapshot.data?.title ?? 'Shared conversation');

  if (snapshot.isPending) return <PageSpinner />;
  if (snapshot.isError) return <Unavailable />;
  const { botName, botIcon, title, messages, sharedAt } = snapshot.data;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <header className="flex items-center gap-3 border-b pb-4">
        <BotIcon icon={botIcon} size="md" />
        <div className="min-w-0">
          <h1 className="truncate text-xl font-semibold tracking-tight">{title}</h1>
          <p className="text-sm text-muted-foreground">
            A conversation with {botName}, shared on{' '}
            {new Date(sharedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}. Read-only.
          </p>
        </div>
      </header>
      <ReadOnlyMessages messages={messages} className="mt-6" />
      {!getAuthToken() && (
        <aside className="mt-10 flex flex-wrap items-center justify-between gap-4 rounded-xl border bg-muted/40 p-5">
          <div className="grid gap-1">
            <h2 className="font-semibold">Make a botty of your own</h2>
            <p className="text-sm text-muted-foreground">
              Create, train and chat with your own AI research assistant, with your files and trusted sources.
            </p>
          </div>
          <Button asChild>
            <Link to="/register">Create your botty</Link>
          </Button>
        </aside>
      )}
    </div>
  );
}
