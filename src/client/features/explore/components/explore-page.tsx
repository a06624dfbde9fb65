import { Compass, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isPurpose, PURPOSE_LABELS, PURPOSES, type Purpose } from '@shared/bots/purposes';
import { useExploreBots } from '@/entities/bot/api/sharing';
import { BotCardSkeletons } from '@/components/bot-card-skeletons';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { SharedBotCard } from './shared-bot-card';
import { useAddCopy } from '@/entities/bot/model/use-add-copy';

const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';
const SEARCH_DELAY_MS = 250;

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed px-6 py-12 text-center">
      <span
        className="flex size-12 items-center justify-center rounded-2xl bg-accent text-accent-foreground"
        aria-hidden="true"
      >
        <Compass className="size-6" />
      </span>
      <h2 className="mt-4 font-semibold">{filtered ? 'No public botties match' : 'No public botties yet'}</h2>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">
        {filtered
          ? 'Try other words, or another purpose.'
          : 'Explore lists the botties people chose to make public. Make one of yours public from its Share menu on My Botties.'}
      </p>
      {filtered ? (
        <Button variant="outline" className="mt-6" onClick={onClear}>
          Clear search
        </Button>
      ) : (
        <Button asChild className="mt-6">
          <Link to="/dashboard">Go to My Botties</Link>
        </Button>
      )}
    </div>
  );
}

/** The search waits for a pause in typing, so each keystroke does not ask the server. */
function useSettled(value: string) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** /explore: public bots of every user, searched by words and filtered by purpose (both kept in the address). */
export function ExplorePage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const requested = params.get('purpose');
  const purpose: Purpose | null = isPurpose(requested) ? requested : null;
  const q = useSettled(text).trim();
  const explore = useExploreBots({ q, purpose });
  const copy = useAddCopy();

  useEffect(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [q, setParams]);

  const choosePurpose = (next: Purpose | null) =>
    setParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next) params.set('purpose', next);
        else params.delete('purpose');
        return params;
      },
      { replace: true },
    );

  const bots = explore.data?.pages.flatMap((page) => page.items);
  const filtered = Boolean(q || purpose);

  return (
    <PageContainer className="grid gap-6">
      <PageHeader title="Explore" description="Botties people made public: chat with them or add a copy to yours" />

      <div role="search" className="grid gap-3" aria-label="Find public botties">
        <div className="relative">
          <label htmlFor={`${id}-q`} className="sr-only">
            Search public botties
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-q`}
            type="search"
            value={text}
            placeholder="Search by name or description"
            className="pl-9"
            maxLength={100}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <div role="group" aria-label="Purpose" className="flex flex-wrap gap-2">
          {([null, ...PURPOSES] as const).map((value) => {
            const active = purpose === value;
            return (
              <Button
                key={value ?? 'all'}
                type="button"
                size="sm"
                variant={active ? 'default' : 'outline'}
                aria-pressed={active}
                className="min-h-11 rounded-full md:min-h-8"
                onClick={() => choosePurpose(value)}
              >
                {value ? PURPOSE_LABELS[value] : 'All purposes'}
              </Button>
            );
          })}
        </div>
      </div>

      <section aria-label="Public botties" aria-busy={explore.isFetching} className="grid gap-4">
        {explore.isError && !bots ? (
          <div className="grid justify-items-start gap-3 rounded-xl border p-5">
            <p className="text-sm">Public botties could not be loaded.</p>
            <Button variant="outline" onClick={() => void explore.refetch()}>
              Try again
            </Button>
          </div>
        ) : !bots ? (
          <BotCardSkeletons label="Loading public botties" count={6} className={GRID} sublineClassName="h-3 w-1/3" />
        ) : bots.length === 0 ? (
          <EmptyState
            filtered={filtered}
            onClear={() => {
              setText('');
              choosePurpose(null);
            }}
          />
        ) : (
          <>
            <p className="sr-only" role="status">
              {explore.hasNextPage ? `More than ${bots.length}` : bots.length} public{' '}
              {bots.length === 1 ? 'botty' : 'botties'} found
            </p>
            <ul className={GRID}>
              {bots.map((bot) => (
                <li key={bot.id}>
                  <SharedBotCard
                    bot={bot}
                    adding={
                      copy.isPending &&
                      copy.variables !== undefined &&
                      'id' in copy.variables &&
                      copy.variables.id === bot.id
                    }
                    onAdd={() => copy.add({ id: bot.id })}
                  />
                </li>
              ))}
            </ul>
            {explore.hasNextPage && (
              <PendingButton
                variant="outline"
                className="justify-self-center"
                pending={explore.isFetchingNextPage}
                pendingLabel="Loading..."
                onClick={() => void explore.fetchNextPage()}
              >
                Show more
              </PendingButton>
            )}
          </>
        )}
      </section>
    </PageContainer>
  );
}
