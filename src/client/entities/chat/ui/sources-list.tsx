import { ExternalLink, FileText, Globe, Wrench } from 'lucide-react';
import type { Source } from '@shared/contracts/chat';
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
          ) : (
            <span className="truncate" title={source.title}>
              {source.title}
            </span>
          )}
        </p>
        {where && <p className="truncate text-xs text-muted-foreground">{where}</p>}
        {source.snippet && (
          <p className="mt-1 line-clamp-3 text-xs break-words text-muted-foreground [overflow-wrap:anywhere]">
            {source.snippet}
          </p>
        )}
      </div>
    </li>
  );
}

/** Under a reply: the numbered sources its [n] markers point to (knowledge passages, web pages, tool resources). */
export function SourcesList({
  messageId,
  sources,
  highlighted,
}: {
  messageId: number;
  sources: readonly Source[];
  highlighted: number | null;
}) {
  const headingId = `message-${messageId}-sources`;
  return (
    <section aria-labelledby={headingId} className="mt-2 w-full max-w-[80%] min-w-0">
      <h3 id={headingId} className="mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Sources
      </h3>
      <ol className="flex flex-col gap-1.5">
        {sources.map((source) => (
          <SourceItem
            key={source.n}
            source={source}
            anchor={sourceAnchor(messageId, source.n)}
            highlighted={highlighted === source.n}
          />
        ))}
      </ol>
    </section>
  );
}
