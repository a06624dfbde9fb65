import { describe, expect, it } from 'vitest';
import { loadPinnedIds, MAX_PINNED_BOTS, movePinnedId, parsePinnedIds, pinId, pinsToStore, unpinId } from './pins';

it('allows the 5 pins of spec §9', () => {
  expect(MAX_PINNED_BOTS).toBe(5);
});

describe('parsePinnedIds', () => {
  it('reads a stored JSON array of ids', () => {
    expect(parsePinnedIds('[3,1,2]')).toEqual([3, 1, 2]);
  });

  it.each([null, '', 'not json', '{"a":1}', '42', 'null'])('treats %j as no pins', (raw) => {
    expect(parsePinnedIds(raw)).toEqual([]);
  });

  it('drops entries that are not whole numbers', () => {
    expect(parsePinnedIds('[1,"2",3.5,null,4]')).toEqual([1, 4]);
  });
});

describe('loadPinnedIds', () => {
  it('keeps only ids that still exist, in stored order', () => {
    expect(loadPinnedIds([5, 9, 2, 7], [2, 5, 7])).toEqual([5, 2, 7]);
  });

  it('ignores the order of the bot list', () => {
    expect(loadPinnedIds([1, 2, 3], [3, 2, 1])).toEqual([1, 2, 3]);
  });

  it('drops repeats', () => {
    expect(loadPinnedIds([4, 4, 1, 4], [1, 4])).toEqual([4, 1]);
  });

  it(`keeps at most ${MAX_PINNED_BOTS}`, () => {
    expect(loadPinnedIds([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7])).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts the limit after removing missing bots', () => {
    expect(loadPinnedIds([9, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5])).toEqual([1, 2, 3, 4, 5]);
  });

  it('is empty without bots', () => {
    expect(loadPinnedIds([1, 2], [])).toEqual([]);
  });
});

describe('pinId', () => {
  it('adds at the end', () => {
    expect(pinId([3, 1], 2)).toEqual({ ok: true, pins: [3, 1, 2] });
  });

  it('leaves a pinned bot where it is', () => {
    expect(pinId([3, 1], 3)).toEqual({ ok: true, pins: [3, 1] });
  });

  it(`refuses a ${MAX_PINNED_BOTS + 1}th`, () => {
    expect(pinId([1, 2, 3, 4, 5], 6)).toEqual({ ok: false, reason: 'limit' });
  });

  it('does not change the list it was given', () => {
    const pins = [1];
    pinId(pins, 2);
    expect(pins).toEqual([1]);
  });
});

describe('unpinId', () => {
  it('removes the id and keeps the order of the rest', () => {
    expect(unpinId([3, 1, 2], 1)).toEqual([3, 2]);
  });

  it('ignores an id that is not pinned', () => {
    expect(unpinId([3, 1], 7)).toEqual([3, 1]);
  });
});

describe('movePinnedId', () => {
  it('moves down onto the target position', () => {
    expect(movePinnedId([1, 2, 3, 4], 1, 3)).toEqual([2, 3, 1, 4]);
  });

  it('moves up onto the target position', () => {
    expect(movePinnedId([1, 2, 3, 4], 4, 2)).toEqual([1, 4, 2, 3]);
  });

  it('changes nothing for a drop without a destination', () => {
    expect(movePinnedId([1, 2, 3], 2, null)).toEqual([1, 2, 3]);
  });

  it('changes nothing for a drop on itself or an unknown id', () => {
    expect(movePinnedId([1, 2, 3], 2, 2)).toEqual([1, 2, 3]);
    expect(movePinnedId([1, 2, 3], 2, 9)).toEqual([1, 2, 3]);
    expect(movePinnedId([1, 2, 3], 9, 1)).toEqual([1, 2, 3]);
  });
});

describe('pinsToStore', () => {
  it('stores the ids as JSON that parsePinnedIds reads back', () => {
    expect(parsePinnedIds(pinsToStore([4, 2, 9]))).toEqual([4, 2, 9]);
  });

  it('stores an empty list, so unpinning the last bot lasts (decisions §1)', () => {
    expect(parsePinnedIds(pinsToStore([]))).toEqual([]);
  });
});
