import { describe, expect, it } from 'vitest';
import { remembered } from './remembered';

function counter() {
  let now = 0;
  let reads = 0;
  const pending: Array<(value: number) => void> = [];
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    reads: () => reads,
    read: () => {
      reads += 1;
      return new Promise<number>((resolve) => pending.push(resolve));
    },
    answer: (value: number) => pending.shift()!(value),
  };
}

describe('remembered', () => {
  it('reads once for callers asking together and again only after its lifetime', async () => {
    const c = counter();
    const settings = remembered(1000, c.read, c.now);
    const owner = {};
    const both = Promise.all([settings.get(owner), settings.get(owner)]);
    c.answer(1);
    expect(await both).toEqual([1, 1]);
    c.advance(999);
    expect(await settings.get(owner)).toBe(1);
    expect(c.reads()).toBe(1);
    c.advance(1);
    const again = settings.get(owner);
    c.answer(2);
    expect(await again).toBe(2);
    expect(c.reads()).toBe(2);
  });

  it('keeps one value per owner', async () => {
    const c = counter();
    const settings = remembered(1000, c.read, c.now);
    const [a, b] = [settings.get({}), settings.get({})];
    c.answer(1);
    c.answer(2);
    expect([await a, await b]).toEqual([1, 2]);
  });

  it('after forget, reads again and does not keep what a read begun before it found', async () => {
    const c = counter();
    const settings = remembered(1000, c.read, c.now);
    const owner = {};
    const before = settings.get(owner);
    settings.forget(owner);
    const after = settings.get(owner);
    c.answer(1);
    c.answer(2);
    expect([await before, await after]).toEqual([1, 2]);
    expect(await settings.get(owner)).toBe(2);
    expect(c.reads()).toBe(2);
  });

  it('does not remember a failed read', async () => {
    let reads = 0;
    const settings = remembered(1000, () => (++reads === 1 ? Promise.reject(new Error('down')) : Promise.resolve(7)));
    const owner = {};
    await expect(settings.get(owner)).rejects.toThrow('down');
    expect(await settings.get(owner)).toBe(7);
  });
});
