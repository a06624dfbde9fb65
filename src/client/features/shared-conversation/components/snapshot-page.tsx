import { Link2Off } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import type { Snapshot } from '@shared/contracts/shares';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { useSnapshot } from '@/features/shared-conversation/api/get-snapshot';
import { cn } from '@/lib/cn';
import { useDocumentTitle } from '@/lib/use-document-title';

const Markdown = lazy(() => import('@/entities/chat/ui/markdown'));

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

type SnapshotMessage = Snapshot['messages'][number];

function Sources({ sources }: { sources: SnapshotMessage['sources'] }) {
  if (!sources.length) return null;
  return (
    <ol className="mt-3 grid gap-1 border-t pt-3 text-sm text-muted-foreground" aria-label="Sources">
      {sources.map((source) => (
        <li key={source.n} id={`source-${source.n}`}>
          [{source.n}]{' '}
          {source.url ? (
            <a href={source.url} target="_blank" rel="noreferrer noopener" className="underline underline-offset-2">
              {source.title}
            </a>
          ) : (
            source.title
          )}
          {source.page ? `, page ${source.page}` : ''}
        </li>
      ))}
    </ol>
  );
}

function SnapshotMessageView({ message }: { message: SnapshotMessage }) {
  const mine = message.role === 'user';
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')}>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-3',
          mine ? 'bg-primary text-primary-foreground' : 'border bg-card text-card-foreground',
        )}
      >
        {mine ? (
          <p className="whitespace-pre-wrap">{message.content}</p>
        ) : (
          <Suspense fallback={<p className="whitespace-pre-wrap">{message.content}</p>}>
            <Markdown citations={message.sources.map((source) => source.n)}>{message.content}</Markdown>
          </Suspense>
        )}
        <Sources sources={message.sources} />
      </div>
    </li>
  );
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
      <ol className="mt-6 grid gap-4" aria-label="Messages">
        {messages.map((message, index) => (
          <SnapshotMessageView key={index} message={message} />
        ))}
      </ol>
    </div>
  );
}
