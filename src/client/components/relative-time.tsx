import { useState, useSyncExternalStore } from 'react';
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

/**
 * "3 minutes ago", kept current while on screen; the exact time is in the markup and, once pointed at, the tooltip.
 * The tooltip's text waits for the pointer because a page's first use of the browser's locale data (Intl, or
 * `toLocaleString`) sets that data up, 30–110 ms of the main thread on a slow machine: it was part of every page
 * that opened with a time on it (decision 0053).
 */
export function RelativeTime({ date, className }: { date: string; className?: string }) {
  // Subscribed only so the text is redrawn on each tick.
  useSyncExternalStore(subscribe, getTick);
  const [pointedAt, setPointedAt] = useState<string>();
  const parsed = new Date(date);
  return (
    <time
      dateTime={date}
      title={pointedAt === date ? parsed.toLocaleString() : undefined}
      onPointerEnter={() => setPointedAt(date)}
      className={className}
    >
      {formatRelativeTime(parsed)}
    </time>
  );
}
