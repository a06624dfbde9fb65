import { ChevronRight } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { splitSources } from '@shared/chat/cited-sources';
import type { Message } from '@shared/contracts/chat';
import type { Snapshot } from '@shared/contracts/shares';
import { cn } from '@/lib/cn';
import { unsupportedMarks } from '../model/support';
import { SupportScore } from './sources-list';
import { loadMarkdown } from './load-markdown';

const Markdown = lazy(loadMarkdown);

/** What both a shared snapshot and a conversation that can no longer be continued show of a message. */
type ReadOnlyMessage = Pick<Message | Snapshot['messages'][number], 'role' | 'content' | 'sources' | 'support'>;

/** The sources a reply cites, the others under "Also consulted" (collapsed), and its support score (decision 0044). */
function Sources({ message }: { message: ReadOnlyMessage }) {
  const [showConsulted, setShowConsulted] = useState(false);
  if (!message.sources.length) return null;
  const { cited, consulted } = splitSources(message.content, message.sources, message.support);
  return (
    <div className="mt-3 border-t pt-3 text-sm text-muted-foreground">
      {cited.length > 0 && <SourceLines sources={cited} label="Sources" />}
      {consulted.length > 0 && (
        <>
          <button
            type="button"
            aria-expanded={showConsulted}
            onClick={() => setShowConsulted((value) => !value)}
            className="inline-flex min-h-8 items-center gap-1 text-xs hover:text-foreground"
          >
            <ChevronRight
              className={cn('size-3.5 transition-transform', showConsulted && 'rotate-90')}
              aria-hidden="true"
            />
            Also consulted ({consulted.length})
          </button>
          {showConsulted && <SourceLines sources={consulted} label="Also consulted" />}
        </>
      )}
      <SupportScore support={message.support} />
    </div>
  );
}

function SourceLines({ sources, label }: { sources: ReadOnlyMessage['sources']; label: string }) {
  return (
    <ol className="grid gap-1" aria-label={label}>
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
            <Markdown
              citations={message.sources.map((source) => source.n)}
              unsupported={unsupportedMarks(message.support)}
            >
              {message.content}
            </Markdown>
          </Suspense>
        )}
        <Sources message={message} />
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
