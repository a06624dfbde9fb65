import { describe, expect, it } from 'vitest';
import { recentlyUsed } from './recently-used';

describe('recentlyUsed', () => {
  it('drops the least recently used entry past its bound, a read counting as a use', () => {
    const cache = recentlyUsed<number, string>(2);
    cache.set(1, 'one');
    cache.set(2, 'two');
    expect(cache.get(1)).toBe('one');
    cache.set(3, 'three');
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe('one');
    expect(cache.get(3)).toBe('three');
  });

  it('keeps one entry per key, the last written', () => {
    const cache = recentlyUsed<number, string>(2);
    cache.set(1, 'one');
    cache.set(1, 'uno');
    cache.set(2, 'two');
    expect(cache.get(1)).toBe('uno');
    expect(cache.get(2)).toBe('two');
  });
});
