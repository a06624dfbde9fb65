import { ChevronRight, ExternalLink, FileText, Globe, Wrench } from 'lucide-react';
import { useState } from 'react';
import { splitSources, SUPPORT_METHOD_LABELS, supportSummary } from '@shared/chat/cited-sources';
import type { Source, Support } from '@shared/contracts/chat';
import { cn } from '@/lib/cn';
import { isWebUrl, siteOf } from '../model/source-link';

/** The element id of a reply's source n, which its [n] markers scroll to. */
export const sourceAnchor = (messageId: number, n: number) => `message-${messageId}-source-${n}`;

function whereInFile(source: Source): string | null {
  const parts = [source.page ? `page ${source.page}` : null, source.section || null].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

function SourceItem({ source, anchor, highlighted }: { source: Source; anchor: string; highlighted: boolean }) {
  const web = source.kind === 'web';
  const Icon = web ? Globe : source.kind === 'tool' ? Wrench : FileText;
  // A web page, or a tool's resource, says its site; a file passage where in the file it is.
  const where = source.kind === 'file' ? whereInFile(source) : source.url ? siteOf(source.url) : null;
  const link = source.kind !== 'file' && isWebUrl(source.url) ? source.url : null;
  // A file's passage opens in place: there is no view of a file to open it in.
  const [open, setOpen] = useState(false);
  const passageId = `${anchor}-passage`;
  return (
    <li
      id={anchor}
      tabIndex={-1}
      className={cn(
        'flex min-w-0 gap-2 rounded-lg border bg-card px-2.5 py-2 transition-colors duration-700 focus:outline-none',
        highlighted && 'border-primary bg-primary/10',
      )}
    >
      <span className="mt-0.5 shrink-0 text-xs font-semibold text-muted-foreground tabular-nums">[{source.n}]</span>
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 items-center gap-1.5 text-sm font-medium">
          <Icon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          {link ? (
            <a
              href={link}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-w-0 items-center gap-1 text-primary underline-offset-2 hover:underline"
            >
              <span className="truncate">{source.title || siteOf(link)}</span>
              <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : source.kind === 'file' && source.snippet ? (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={passageId}
              title={open ? 'Hide the passage' : 'Show the cited passage'}
              onClick={() => setOpen((value) => !value)}
              className="inline-flex min-w-0 items-center gap-1 text-left underline-offset-2 hover:underline"
            >
              <span className="truncate">{source.title}</span>
              <ChevronRight
                className={cn('size-3 shrink-0 transition-transform', open && 'rotate-90')}
                aria-hidden="true"
              />
            </button>
          ) : (
            <span className="truncate" title={source.title}>
              {source.title}
            </span>
          )}
        </p>
        {where && <p className="truncate text-xs text-muted-foreground">{where}</p>}
        {source.snippet && (
          <p
            id={passageId}
            className={cn(
              'mt-1 text-xs break-words whitespace-pre-line text-muted-foreground [overflow-wrap:anywhere]',
              !open && 'line-clamp-3',
            )}
          >
            {source.snippet}
          </p>
        )}
      </div>
    </li>
  );
}

function SourceItems({
  messageId,
  sources,
  highlighted,
  id,
}: {
  messageId: number;
  sources: readonly Source[];
  highlighted: number | null;
  id?: string;
}) {
  return (
    <ol id={id} className="flex flex-col gap-1.5">
      {sources.map((source) => (
        <SourceItem
          key={source.n}
          source={source}
          anchor={sourceAnchor(messageId, source.n)}
          highlighted={highlighted === source.n}
        />
      ))}
    </ol>
  );
}

/** "4 of 5 sentences supported", and how they were checked; nothing before the check or with nothing to check. */
export function SupportScore({ support }: { support: Support | null | undefined }) {
  const summary = support && supportSummary(support);
  if (!summary) return null;
  return (
    <p className="mt-1.5 text-xs text-muted-foreground">
      {summary}
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
      {SUPPORT_METHOD_LABELS[support.method]}
    </p>
  );
}

/**
 * Under a reply: the numbered sources it cites ([n] markers, or backing a sentence by its support check), then the
 * others it was given, collapsed under "Also consulted" (decision 0044), and how many sentences they support.
 */
export function SourcesList({
  messageId,
  content,
  sources,
  support,
  highlighted,
}: {
  messageId: number;
  content: string;
  sources: readonly Source[];
  support?: Support | null;
  highlighted: number | null;
}) {
  const [showConsulted, setShowConsulted] = useState(false);
  const { cited, consulted } = splitSources(content, sources, support);
  const headingId = `message-${messageId}-sources`;
  const consultedId = `message-${messageId}-consulted`;
  return (
    <section aria-labelledby={headingId} className="mt-2 w-full max-w-[80%] min-w-0">
      <h3 id={headingId} className="mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Sources
      </h3>
      {cited.length > 0 && <SourceItems messageId={messageId} sources={cited} highlighted={highlighted} />}
      {consulted.length > 0 && (
        <div className={cn(cited.length > 0 && 'mt-1.5')}>
          <button
            type="button"
            aria-expanded={showConsulted}
            aria-controls={consultedId}
            onClick={() => setShowConsulted((value) => !value)}
            className="inline-flex min-h-8 items-center gap-1 rounded-md text-xs text-muted-foreground hover:text-foreground"
          >
            <ChevronRight
              className={cn('size-3.5 transition-transform', showConsulted && 'rotate-90')}
              aria-hidden="true"
            />
            Also consulted ({consulted.length})
          </button>
          {showConsulted && (
            <SourceItems id={consultedId} messageId={messageId} sources={consulted} highlighted={highlighted} />
          )}
        </div>
      )}
      <SupportScore support={support} />
    </section>
  );
}
