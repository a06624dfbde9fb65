import { formatCount } from '@/lib/format-count';

/** Sizes as Ollama reports them, in the units people read: "4.7 GB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A daily limit as a sentence part: "12,000" or "no limit". */
export const formatLimit = (limit: number | null) => (limit === null ? 'no limit' : formatCount(limit));

/** Today and the day `days` before it, as the YYYY-MM-DD days (UTC) the usage report counts in. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** The two daily limits, in the order and with the labels their fields have. */
export const LIMIT_FIELDS = [
  { key: 'dailyTokens', label: 'Daily tokens' },
  { key: 'dailyReplies', label: 'Daily replies' },
] as const;

/** A limit as its field shows it: empty for none. */
export const limitText = (limit: number | null) => (limit === null ? '' : String(limit));

/** A limit field's text as the API takes it: empty means none (or the role's default). */
export function parseLimit(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}
