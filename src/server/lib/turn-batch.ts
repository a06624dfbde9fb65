/**
 * Collects the items handed to it during one turn of the event loop, per key, then hands each key's batch to
 * `run` at once. Under load many requests reach the same step together; a batch lets them share the cost of
 * a step that is expensive per call and cheap per item, such as a database commit.
 */
export function batchPerTurn<K, T>(run: (key: K, batch: T[]) => void): (key: K, item: T) => void {
  const batches = new Map<K, T[]>();
  return (key, item) => {
    const batch = batches.get(key);
    if (batch) return void batch.push(item);
    const items = [item];
    batches.set(key, items);
    setImmediate(() => {
      batches.delete(key);
      run(key, items);
    });
  };
}
