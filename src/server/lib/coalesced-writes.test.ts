import { describe, expect, it } from 'vitest';
import { coalescedWrites } from './coalesced-writes';

describe('coalescedWrites', () => {
  it('writes what arrives during a write as one, per key, and resolves each caller after its write', async () => {
    const writes: [string, number][] = [];
    let release: () => void = () => {};
    const write = coalescedWrites<string, number>(
      (a, b) => a + b,
      async (key, value) => {
        writes.push([key, value]);
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    );
    const first = write('a', 1);
    const done: number[] = [];
    const later = [write('a', 2).then(() => done.push(2)), write('a', 3).then(() => done.push(3))];
    const other = write('b', 5);
    await other;
    expect(writes).toEqual([
      ['a', 1],
      ['b', 5],
    ]);
    expect(done).toEqual([]);
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([
      ['a', 1],
      ['b', 5],
      ['a', 5],
    ]);
    expect(done).toEqual([2, 3]);
  });

  it('rejects only the callers whose write failed, and goes on with the next', async () => {
    let fail = true;
    const write = coalescedWrites<string, number>(
      (a, b) => a + b,
      async () => {
        await Promise.resolve();
        if (fail) {
          fail = false;
          throw new Error('unavailable');
        }
      },
    );
    const failed = write('a', 1);
    const next = write('a', 2);
    await expect(failed).rejects.toThrow('unavailable');
    await expect(next).resolves.toBeUndefined();
  });

  it('gathers values for gatherMs before a write, so writes that end at once (SQLite) still add up', async () => {
    const writes: number[] = [];
    const record = (gatherMs: number) =>
      coalescedWrites<string, number>(
        (a, b) => a + b,
        async (_, value) => void writes.push(value),
        { gatherMs },
      );
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // Each value in a turn of its own, as replies ending on separate events are.
    for (const gatherMs of [0, 50]) {
      const write = record(gatherMs);
      const written: Promise<void>[] = [];
      for (const value of [1, 2, 3]) {
        written.push(write('a', value));
        await nextTurn();
      }
      await Promise.all(written);
    }
    expect(writes).toEqual([1, 2, 3, 6]);
  });
});
