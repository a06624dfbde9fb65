import { ArrowRight, Pin } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Bot } from '@shared/contracts/bots';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { MAX_PINNED_BOTS } from '@/entities/bot/model/pins';
import { usePinnedBots } from '@/entities/bot/model/use-pinned-bots';
import { BotsLoadError } from '@/entities/bot/ui/bots-load-error';
import { PinnedBotSummary } from './pinned-bot-summary';
import { SortablePinnedList } from './sortable-pinned-list';

const focusRing = 'focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

function PinnedList({ bots, onOpenChat }: { bots: Bot[]; onOpenChat: (botId: number) => void }) {
  return (
    <ul className="grid grid-cols-[minmax(0,1fr)] gap-1">
      {bots.map((bot) => (
        <li key={bot.id}>
          <button
            type="button"
            onClick={() => onOpenChat(bot.id)}
            className={`flex min-h-14 w-full items-center rounded-lg px-2 py-2 text-left transition-colors hover:bg-accent ${focusRing}`}
          >
            <PinnedBotSummary bot={bot} />
          </button>
        </li>
      ))}
    </ul>
  );
}

function EmptyPins() {
  return (
    <div className="flex flex-col items-center px-2 py-6 text-center">
      <span
        className="flex size-10 items-center justify-center rounded-full bg-accent text-accent-foreground"
        aria-hidden="true"
      >
        <Pin className="size-5" />
      </span>
      <p className="mt-3 text-sm font-medium">No pinned bots yet</p>
      <p className="mt-1 text-xs text-muted-foreground">
        Keep up to {MAX_PINNED_BOTS} favourites here for a quick chat.
      </p>
      <Button asChild variant="outline" size="sm" className="mt-4">
        <Link to="/dashboard">Pin your favorite bots</Link>
      </Button>
    </div>
  );
}

/** The home screen's side panel of pinned bots (spec §2, §4); outside edit mode a click opens that bot's chat. */
export function TopBottiesPanel({ onOpenChat }: { onOpenChat: (botId: number) => void }) {
  const { pinnedBots, isLoading, loadFailed, retrying, retry, unpin, reorder } = usePinnedBots();
  const [editing, setEditing] = useState(false);
  // Removing the last pin ends edit mode: there is nothing left to edit.
  const isEditing = editing && pinnedBots.length > 0;

  let body;
  if (loadFailed) {
    body = <BotsLoadError onRetry={retry} retrying={retrying} className="border-0 px-2" />;
  } else if (isLoading) {
    body = (
      <div role="status" className="grid gap-2 p-2">
        <span className="sr-only">Loading your top botties</span>
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-12" />
        ))}
      </div>
    );
  } else if (pinnedBots.length === 0) {
    body = <EmptyPins />;
  } else if (isEditing) {
    body = (
      <div className="grid gap-3">
        <p className="px-1 text-xs text-muted-foreground">Drag to reorder. Select a botty to unpin it.</p>
        <SortablePinnedList bots={pinnedBots} onRemove={unpin} onReorder={reorder} />
      </div>
    );
  } else {
    body = <PinnedList bots={pinnedBots} onOpenChat={onOpenChat} />;
  }

  return (
    <aside aria-labelledby="top-botties-title">
      <Card className="bg-card/90 backdrop-blur-sm">
        <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-2">
          <h2 id="top-botties-title" className="font-semibold tracking-tight">
            Your Top Botties
          </h2>
          <Button variant="ghost" size="sm" disabled={pinnedBots.length === 0} onClick={() => setEditing(!isEditing)}>
            {isEditing ? 'Done' : 'Edit'}
          </Button>
        </div>
        <div className="px-2 pb-2">{body}</div>
        <div className="border-t p-2">
          <Link
            to="/dashboard"
            className={`flex min-h-11 items-center justify-between gap-2 rounded-lg px-2 text-sm font-medium text-primary hover:bg-accent ${focusRing}`}
          >
            View all your botties
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </Card>
    </aside>
  );
}
