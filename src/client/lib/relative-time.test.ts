import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const NOW = Date.parse('2025-06-15T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000);

describe('formatRelativeTime', () => {
  it.each([
    [0, 'less than a minute ago'],
    [59, 'less than a minute ago'],
    [60, '1 minute ago'],
    [3 * 60 + 20, '3 minutes ago'],
    [60 * 60, '1 hour ago'],
    [5 * 60 * 60, '5 hours ago'],
    [24 * 60 * 60, '1 day ago'],
    [3 * 24 * 60 * 60, '3 days ago'],
    [14 * 24 * 60 * 60, '2 weeks ago'],
    [45 * 24 * 60 * 60, '1 month ago'],
    [400 * 24 * 60 * 60, '1 year ago'],
  ])('says %i seconds ago is "%s"', (seconds, text) => {
    expect(formatRelativeTime(ago(seconds), NOW)).toBe(text);
  });

  it('words every count as Intl.RelativeTimeFormat does in English', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const units: [Intl.RelativeTimeFormatUnit, number][] = [
      ['minute', 60],
      ['hour', 60 * 60],
      ['day', 24 * 60 * 60],
      ['week', 7 * 24 * 60 * 60],
      ['month', 30 * 24 * 60 * 60],
      ['year', 365 * 24 * 60 * 60],
    ];
    const counts = { minute: 59, hour: 23, day: 6, week: 4, month: 12, year: 1_200 };
    for (const [unit, size] of units)
      for (let count = 1; count <= counts[unit as keyof typeof counts]; count += 1)
        expect(formatRelativeTime(ago(count * size), NOW)).toBe(intl.format(-count, unit));
  });

  it('reads ISO strings as the server sends them', () => {
    expect(formatRelativeTime('2025-06-15T11:57:00.000Z', NOW)).toBe('3 minutes ago');
  });

  it('treats a time slightly ahead of this clock as just now', () => {
    expect(formatRelativeTime(new Date(NOW + 30_000), NOW)).toBe('less than a minute ago');
  });

  it('shows nothing for a date it cannot read', () => {
    expect(formatRelativeTime('not a date', NOW)).toBe('');
  });
});
