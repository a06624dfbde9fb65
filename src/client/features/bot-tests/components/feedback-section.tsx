import { Check, MessageSquareWarning, Plus, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useState } from 'react';
import { FEEDBACK_RATINGS, FEEDBACK_SURFACES, type FeedbackEntry } from '@shared/contracts/feedback';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { useAddToTests, useFeedbackLog, type FeedbackFilters } from '../api/tests';
import { SURFACE_LABELS } from '../model/tests';

const SELECT = 'h-11 w-full rounded-lg border border-input bg-background px-3 text-base md:h-9 md:text-sm';
const RATING_LABELS = { up: 'Thumbs up', down: 'Thumbs down' } as const;

interface FeedbackSectionProps {
  botId: number;
  /** The bot's current version: the version filter offers 1 to it. */
  currentVersion: number;
}

/** The owner's feedback log: rated replies, filterable, each one click from becoming a test case. */
export function FeedbackSection({ botId, currentVersion }: FeedbackSectionProps) {
  const [filters, setFilters] = useState<FeedbackFilters>({ rating: 'down' });
  const log = useFeedbackLog(botId, filters);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const set = (key: keyof FeedbackFilters, value: string) =>
    setFilters((f) => ({ ...f, [key]: value === '' ? undefined : key === 'version' ? Number(value) : value }));
  const versions = Array.from({ length: currentVersion }, (_, i) => currentVersion - i);

  return (
    <section aria-labelledby="feedback-title" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="feedback-title" className="flex items-center gap-2 text-lg font-semibold">
          <MessageSquareWarning className="size-5 text-primary" aria-hidden="true" />
          Feedback
        </h2>
        <p className="text-sm text-muted-foreground">
          Replies people rated, newest first. Add one to the tests and every release is checked against it.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Filter label="Rating" value={filters.rating} onChange={(v) => set('rating', v)}>
          {FEEDBACK_RATINGS.map((r) => (
            <option key={r} value={r}>
              {RATING_LABELS[r]}
            </option>
          ))}
        </Filter>
        <Filter label="Version" value={filters.version} onChange={(v) => set('version', v)}>
          {versions.map((v) => (
            <option key={v} value={v}>
              Version {v}
            </option>
          ))}
        </Filter>
        <Filter label="Where" value={filters.surface} onChange={(v) => set('surface', v)}>
          {FEEDBACK_SURFACES.filter((s) => s !== 'api').map((s) => (
            <option key={s} value={s}>
              {SURFACE_LABELS[s]}
            </option>
          ))}
        </Filter>
      </div>
      {log.isError ? (
        <p role="alert" className="text-destructive">
          The feedback could not be loaded.
        </p>
      ) : !log.data ? (
        <Skeleton className="h-40" />
      ) : entries.length === 0 ? (
        <p className="rounded-xl border border-dashed p-6 text-sm text-muted-foreground">
          No rated replies{filters.rating || filters.version || filters.surface ? ' match these filters' : ' yet'}.
          Ratings people give replies (thumbs up or down, with a comment) are listed here.
        </p>
      ) : (
        <ul className="grid gap-3">
          {entries.map((entry) => (
            <FeedbackItem key={entry.messageId} botId={botId} entry={entry} />
          ))}
        </ul>
      )}
      {log.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </section>
  );
}

interface FilterProps {
  label: string;
  value: string | number | undefined;
  onChange: (value: string) => void;
  children: React.ReactNode;
}

function Filter({ label, value, onChange, children }: FilterProps) {
  const id = `feedback-filter-${label.toLowerCase()}`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={SELECT} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {children}
      </select>
    </div>
  );
}

function FeedbackItem({ botId, entry }: { botId: number; entry: FeedbackEntry }) {
  const add = useAddToTests(botId);
  const inTests = entry.testCaseId !== null;
  const Thumb = entry.rating === 'up' ? ThumbsUp : ThumbsDown;
  const onAdd = () =>
    add.mutate(entry.messageId, {
      onSuccess: () => toast({ title: 'Added to tests', description: entry.question.slice(0, 120) }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Not added', description: serverMessage(error) ?? 'Please try again.' }),
    });

  return (
    <li className="grid gap-2 rounded-xl border p-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant={entry.rating === 'up' ? 'success' : 'destructive'}>
          <Thumb className="size-3" aria-hidden="true" />
          {RATING_LABELS[entry.rating]}
        </Badge>
        {entry.botVersion !== null && <Badge variant="outline">Version {entry.botVersion}</Badge>}
        <Badge variant="secondary">{SURFACE_LABELS[entry.surface]}</Badge>
        <RelativeTime date={entry.ratedAt} className="text-xs text-muted-foreground" />
      </div>
      <p className="font-medium break-words whitespace-pre-wrap">{entry.question || '(no question)'}</p>
      <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">{entry.reply}</p>
      {entry.comment && (
        <blockquote className="border-l-2 border-primary pl-3 text-sm break-words whitespace-pre-wrap">
          {entry.comment}
        </blockquote>
      )}
      <div>
        <Button
          size="sm"
          variant={inTests ? 'outline' : 'default'}
          disabled={inTests || add.isPending || !entry.question}
          onClick={onAdd}
          aria-label={inTests ? undefined : `Add to tests: ${entry.question.slice(0, 60)}`}
        >
          {inTests ? <Check aria-hidden="true" /> : <Plus aria-hidden="true" />}
          {inTests ? 'In tests' : 'Add to tests'}
        </Button>
      </div>
    </li>
  );
}
