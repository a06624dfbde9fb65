/** Spec §9. */
export const MAX_PINNED_BOTS = 5;

/**
 * The pinned-bot list (spec §4, §5): ids in the user's chosen order, at most MAX_PINNED_BOTS.
 * Pure functions over id lists, so the rules are testable apart from storage and React.
 */
export type PinnedIds = readonly number[];

/** The stored JSON, tolerating anything a user or an older version may have left in storage. */
export function parsePinnedIds(raw: string | null): number[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

/** Stored ids that still exist among the user's bots, in stored order, without repeats, at most the limit. */
export function loadPinnedIds(stored: PinnedIds, existing: Iterable<number>): number[] {
  const available = new Set(existing);
  const result: number[] = [];
  for (const id of stored) {
    if (result.length === MAX_PINNED_BOTS) break;
    if (available.delete(id)) result.push(id);
  }
  return result;
}

export type PinResult = { ok: true; pins: number[] } | { ok: false; reason: 'limit' };

/** What to write to storage. Unlike spec §4, an emptied list is stored too, so the last bot stays unpinned (decisions §1). */
export function pinsToStore(pins: PinnedIds): string {
  return JSON.stringify(pins);
}

/** Adds at the end; pinning a pinned bot changes nothing, and a full list refuses. */
export function pinId(pins: PinnedIds, id: number): PinResult {
  if (pins.includes(id)) return { ok: true, pins: [...pins] };
  if (pins.length >= MAX_PINNED_BOTS) return { ok: false, reason: 'limit' };
  return { ok: true, pins: [...pins, id] };
}

export function unpinId(pins: PinnedIds, id: number): number[] {
  return pins.filter((pinned) => pinned !== id);
}

/** Moves `activeId` to where `overId` is; a drop without a destination (null) or onto itself changes nothing. */
export function movePinnedId(pins: PinnedIds, activeId: number, overId: number | null): number[] {
  const from = pins.indexOf(activeId);
  const to = overId === null ? -1 : pins.indexOf(overId);
  if (from === -1 || to === -1 || from === to) return [...pins];
  const result = [...pins];
  result.splice(from, 1);
  result.splice(to, 0, activeId);
  return result;
}
