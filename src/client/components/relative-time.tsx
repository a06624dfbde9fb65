import { useSyncExternalStore } from 'react';
import { formatRelativeTime } from '@/lib/relative-time';

const TICK_MS = 30_000;

// One timer for every relative time on the page, running only while one is shown.
const listeners = new Set<() => void>();
let tick = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    timer = setInterval(() => {
      tick += 1;
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const getTick = () => tick;

/** "3 minutes ago", kept current while on screen; the exact time is in the tooltip and the markup. */
export function RelativeTime({ date, className }: { date: string; className?: string }) {
  // Subscribed only so the text is redrawn on each tick.
  useSyncExternalStore(subscribe, getTick);
  const parsed = new Date(date);
  return (
    <time dateTime={date} title={parsed.toLocaleString()} className={className}>
      {formatRelativeTime(parsed)}
    </time>
  );
}
