const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
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
 */
export function formatRelativeTime(date: string | Date, now: number = Date.now()): string {
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.max(0, Math.floor((now - time) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return rtf.format(-Math.floor(seconds / size), unit);
  }
  return 'less than a minute ago';
}
