/**
 * The gathering time of counters written off a request's path (usage rows, bots' use counts): short enough that a
 * report or a limit check a moment later sees them, long enough that the replies ending under load share a write
 * (at 500 concurrent replies on SQLite, a few dozen writes instead of one a reply).
 */
export const COUNTER_GATHER_MS = 25;

export interface CoalescingOptions {
  /**
   * How long a key's first value waits for others before its write goes out (none by default). Where a write
   * finishes within the caller's turn (SQLite, whose statements run synchronously), nothing arrives while it is
   * under way, so without a wait nothing would ever be added up.
   */
  gatherMs?: number;
}

/**
 * Writes per key, one at a time, adding up what arrives meanwhile: a value handed in while its key's write is
 * under way (or gathered, see `gatherMs`) waits and goes out merged with the others in the next write. Under load,
 * each key has at most one write in flight and one waiting, however many callers there are. Resolves (or rejects)
 * once the write that carried the caller's value is done.
 */
export function coalescedWrites<K, V>(
  merge: (a: V, b: V) => V,
  write: (key: K, value: V) => Promise<unknown>,
  { gatherMs = 0 }: CoalescingOptions = {},
): (key: K, value: V) => Promise<void> {
  interface Waiting {
    value: V;
    callers: { resolve: () => void; reject: (error: unknown) => void }[];
  }
  const waiting = new Map<K, Waiting>();
  const writing = new Set<K>();

  async function drain(key: K) {
    writing.add(key);
    if (gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, gatherMs));
    for (let next = waiting.get(key); next; next = waiting.get(key)) {
      waiting.delete(key);
      try {
        await write(key, next.value);
        for (const caller of next.callers) caller.resolve();
      } catch (error) {
        for (const caller of next.callers) caller.reject(error);
      }
    }
    writing.delete(key);
  }

  return (key, value) =>
    new Promise((resolve, reject) => {
      const next = waiting.get(key);
      if (next) {
        next.value = merge(next.value, value);
        next.callers.push({ resolve, reject });
      } else waiting.set(key, { value, callers: [{ resolve, reject }] });
      if (!writing.has(key)) void drain(key);
    });
}

/** coalescedWrites for each target (a database handle): writes meant for different targets never merge. */
export function coalescedWritesPer<D extends object, K, V>(
  merge: (a: V, b: V) => V,
  write: (target: D, key: K, value: V) => Promise<unknown>,
  options?: CoalescingOptions,
): (target: D, key: K, value: V) => Promise<void> {
  const perTarget = new WeakMap<D, (key: K, value: V) => Promise<void>>();
  return (target, key, value) => {
    let writeTo = perTarget.get(target);
    if (!writeTo) {
      writeTo = coalescedWrites(merge, (k: K, v: V) => write(target, k, v), options);
      perTarget.set(target, writeTo);
    }
    return writeTo(key, value);
  };
}
