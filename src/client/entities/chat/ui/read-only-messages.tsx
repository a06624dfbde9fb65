import { lazy, Suspense } from 'react';
import type { Message } from '@shared/contracts/chat';
import type { Snapshot } from '@shared/contracts/shares';
import { cn } from '@/lib/cn';

const Markdown = lazy(() => import('./markdown'));

/** What both a shared snapshot and a conversation that can no longer be continued show of a message. */
type ReadOnlyMessage = Pick<Message | Snapshot['messages'][number], 'role' | 'content' | 'sources'>;

function Sources({ sources }: { sources: ReadOnlyMessage['sources'] }) {
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

function ReadOnlyMessageView({ message }: { message: ReadOnlyMessage }) {
  const mine = message.role === 'user';
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')}>
      <div
        className={cn(
          'max-w-[85%] min-w-0 rounded-2xl px-4 py-3 break-words',
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

/** A conversation to read, not to answer: no composer, no per-message actions. */
export function ReadOnlyMessages({ messages, className }: { messages: ReadOnlyMessage[]; className?: string }) {
  return (
    <ol className={cn('grid gap-4', className)} aria-label="Messages">
      {messages.map((message, index) => (
        <ReadOnlyMessageView key={index} message={message} />
      ))}
    </ol>
  );
}
