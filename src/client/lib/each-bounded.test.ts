import { describe, expect, it } from 'vitest';
import { eachBounded } from './each-bounded';

describe('eachBounded', () => {
  it('runs at most `limit` at once, starts the next as one ends, and keeps the items’ order', async () => {
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const done = eachBounded([1, 2, 3, 4, 5], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
      return n * 10;
    });
    // Released last to first: each release lets exactly one more start.
    for (let released = 0; released < 5; released++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      releases.pop()!();
    }
    expect(await done).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
  });

  it('answers an empty list at once', async () => {
    expect(await eachBounded([], 3, async () => 1)).toEqual([]);
  });
});
