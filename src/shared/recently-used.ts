/**
 * A map that keeps its `size` most recently used entries: reading or writing an entry makes it the most recent,
 * and a write past the bound drops the least recently used.
 */
export function recentlyUsed<K, V>(size: number) {
  const entries = new Map<K, V>();
  const touch = (key: K, value: V) => {
    entries.delete(key);
    entries.set(key, value);
  };
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) touch(key, value);
      return value;
    },
    set(key: K, value: V) {
      touch(key, value);
      if (entries.size > size) entries.delete(entries.keys().next().value!);
    },
  };
}
