/**
 * The message being written, held outside React state: each keystroke re-renders the composer that shows it, not
 * the conversation beside it (every row on screen, and while a reply streams, each of its frames waited on that).
 * The chat panel keeps one, so the text survives the conversation arriving and the view remounting.
 */
export function createDraft() {
  let text = '';
  const listeners = new Set<() => void>();
  return {
    get: () => text,
    set(next: string) {
      text = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type Draft = ReturnType<typeof createDraft>;
