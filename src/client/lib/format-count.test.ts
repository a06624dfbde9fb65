import { describe, expect, it } from 'vitest';
import { formatCount, formatEnglishCount } from './format-count';

describe('formatEnglishCount', () => {
  it('groups digits as toLocaleString("en") does, for every magnitude and sign', () => {
    const values = [0, 7, 42, 999, 1000, 1234, 12_000, 999_999, 1_000_000, 123_456_789, 9_007_199_254_740_991];
    for (const value of [...values, ...values.slice(1).map((v) => -v)])
      expect(formatEnglishCount(value)).toBe(value.toLocaleString('en'));
  });
});

describe('formatCount', () => {
  it('groups digits in the reader’s own way', () => {
    expect(formatCount(12_000)).toBe((12_000).toLocaleString());
  });
});
