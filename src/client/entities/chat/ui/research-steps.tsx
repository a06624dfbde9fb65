import { AlertCircle, Check, ChevronRight, Globe, LoaderCircle, Search } from 'lucide-react';
import type { ReplyStep, Source } from '@shared/contracts/chat';
import { ToolStep } from './tool-step';

/** `nih.gov/health/vitamin-d`: an address as short as it can be and still say where. */
export function shortUrl(url: string | undefined): string {
  if (!url) return 'a page';
  try {
    const { hostname, pathname } = new URL(url);
    return `${hostname.replace(/^www\./, '')}${pathname === '/' ? '' : pathname}`;
  } catch {
    return url;
  }
}

/** What a step did, in the words of its state: "Searching the web for …", "Read nih.gov/…". */
export function stepText(step: ReplyStep): string {
  if (step.kind === 'search') {
    const query = `“${step.query ?? ''}”`;
    if (step.status === 'running') return `Searching the web for ${query}`;
    if (step.status === 'done') return `Searched the web for ${query}`;
    return `Searching the web for ${query} failed${step.error ? `: ${step.error}` : ''}`;
  }
  const page = shortUrl(step.url);
  if (step.status === 'running') return `Reading ${page}`;
  if (step.status === 'done') return `Read ${page}`;
  return `Could not read ${page}${step.error ? `: ${step.error}` : ''}`;
}

/**
 * "Researched 3 sources": the web pages the reply cites, or else the pages it read. A search that found nothing
 * is no source, so research that found none says so. Tool calls are counted apart ("Used 2 tools").
 */
export function researchSummary(steps: readonly ReplyStep[], sources: readonly Source[]): string {
  const tools = steps.filter((step) => step.kind === 'tool').length;
  const web = steps.length - tools;
  const found =
    sources.filter((source) => source.kind === 'web').length ||
    steps.filter((s) => s.kind === 'open' && s.status === 'done').length;
  const failed = steps.filter((step) => step.status === 'failed').length;
  const parts = [
    web || !tools
      ? found
        ? `Researched ${found} ${found === 1 ? 'source' : 'sources'}`
        : 'Researched the web: no source found'
      : null,
    tools ? `Used ${tools} ${tools === 1 ? 'tool' : 'tools'}` : null,
    failed ? `${failed} ${failed === 1 ? 'step' : 'steps'} failed` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

function StepRow({ step, conversationId }: { step: ReplyStep; conversationId?: number }) {
  if (step.kind === 'tool')
    return (
      <li className="min-w-0">
        <ToolStep step={step} conversationId={conversationId} />
      </li>
    );
  const Icon = step.kind === 'search' ? Search : Globe;
  return (
    <li className={`flex min-w-0 items-start gap-2 ${step.status === 'failed' ? 'text-error' : ''}`}>
      <span className="mt-0.5 flex size-3.5 shrink-0 items-center justify-center">
        {step.status === 'running' ? (
          <LoaderCircle className="size-3.5 motion-safe:animate-spin" aria-hidden="true" />
        ) : step.status === 'failed' ? (
          <AlertCircle className="size-3.5" aria-hidden="true" />
        ) : (
          <Check className="size-3.5" aria-hidden="true" />
        )}
      </span>
      <Icon className="mt-0.5 size-3.5 shrink-0 opacity-70" aria-hidden="true" />
      <span className="min-w-0 [overflow-wrap:anywhere]">{stepText(step)}</span>
    </li>
  );
}

const StepList = ({ steps, conversationId }: { steps: readonly ReplyStep[]; conversationId?: number }) => (
  <ul className="flex flex-col gap-1 text-xs text-muted-foreground">
    {steps.map((step, index) => (
      <StepRow key={index} step={step} conversationId={conversationId} />
    ))}
  </ul>
);

/**
 * The research a reply did and the tools it called. While it researches (no answer text yet), or while a tool
 * call waits for the person's answer, the steps show live; once the answer arrives, and for saved replies, they
 * fold into a "Researched N sources" summary that opens on demand. `conversationId` (the person's own chat, not a
 * read-only view) lets a waiting call be approved or denied.
 */
export function ResearchSteps({
  steps,
  sources,
  live,
  conversationId,
}: {
  steps: readonly ReplyStep[];
  sources: readonly Source[];
  live: boolean;
  conversationId?: number;
}) {
  if (live || steps.some((step) => step.status === 'awaiting_approval')) {
    return (
      <div role="status" aria-label="Research steps" className="mb-1.5 w-full max-w-[80%] min-w-0 max-sm:max-w-full">
        <StepList steps={steps} conversationId={conversationId} />
      </div>
    );
  }
  return (
    <details className="group mb-1.5 w-full max-w-[80%] min-w-0 text-xs text-muted-foreground">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md py-1 pr-1.5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-3.5 transition-transform group-open:rotate-90" aria-hidden="true" />
        {researchSummary(steps, sources)}
      </summary>
      <div className="mt-1 border-l pl-3">
        <StepList steps={steps} conversationId={conversationId} />
      </div>
    </details>
  );
}
