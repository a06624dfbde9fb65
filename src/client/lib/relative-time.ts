import { formatEnglishCount } from './format-count';

const UNITS: [unit: string, seconds: number][] = [
  ['year', 365 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60],
  ['week', 7 * 24 * 60 * 60],
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
];

/**
 * Elapsed time in words with a suffix ("3 minutes ago"), as the spec's cards and chat header show it.
 * A time slightly in the future (a server clock ahead of this one) reads as just now, never "in 2 minutes".
 * Worded here rather than by Intl.RelativeTimeFormat, which says the same in English (the test compares them) but
 * takes Chromium 30–45 ms to construct on every page load, on the way to the first screen (decision 0052).
 */
export function formatRelativeTime(date: string | Date, now: number = Date.now()): string {
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.max(0, Math.floor((now - time) / 1000));
  for (const [unit, size] of UNITS) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${formatEnglishCount(count)} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}
