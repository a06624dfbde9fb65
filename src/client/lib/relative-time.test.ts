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
