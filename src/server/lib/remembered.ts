/**
 * A value read from the database that every reply needs and that rarely changes (the instance's settings, its
 * model connections): read once per `ttlMs` for each owner (a database), and once for all the callers that ask
 * at the same time. A write calls forget, so this instance reads its own writes at once; other instances sharing
 * the database are told to forget too (lib/instance-notices.ts), and see them within `ttlMs` when that notice is
 * lost (Redis away).
 */
export interface Remembered<K extends object, T> {
  get(owner: K): Promise<T>;
  /** After a write: the next get reads again, and a read already under way is not kept. */
  forget(owner: K): void;
}

interface Entry<T> {
  value?: { read: T; until: number };
  inFlight?: Promise<T>;
  generation: number;
}

export function remembered<K extends object, T>(
  ttlMs: number,
  read: (owner: K) => Promise<T>,
  now: () => number = Date.now,
): Remembered<K, T> {
  // Keyed by the owner itself, so an app (or a test's database) that goes away takes its entry with it.
  const entries = new WeakMap<K, Entry<T>>();
  const entryOf = (owner: K) => {
    let entry = entries.get(owner);
    if (!entry) entries.set(owner, (entry = { generation: 0 }));
    return entry;
  };
  return {
    get(owner) {
      const entry = entryOf(owner);
      if (entry.value && entry.value.until > now()) return Promise.resolve(entry.value.read);
      if (entry.inFlight) return entry.inFlight;
      const startedIn = entry.generation;
      const reading = read(owner).then(
        (value) => {
          if (entry.generation === startedIn) {
            entry.value = { read: value, until: now() + ttlMs };
            entry.inFlight = undefined;
          }
          return value;
        },
        (err: unknown) => {
          if (entry.generation === startedIn) entry.inFlight = undefined;
          throw err;
        },
      );
      entry.inFlight = reading;
      return reading;
    },
    forget(owner) {
      const entry = entryOf(owner);
      entry.generation += 1;
      entry.value = undefined;
      entry.inFlight = undefined;
    },
  };
}
