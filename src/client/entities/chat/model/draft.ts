import { useState, useSyncExternalStore } from 'react';

/**
 * The message being typed, held outside React's state: a key press redraws the composer that shows it, not the
 * chat panel above it with the whole conversation (decision 0056). Sending reads it when it sends.
 */
export interface Draft {
  get(): string;
  set(text: string): void;
  subscribe(listener: () => void): () => void;
}

function createDraft(): Draft {
  let text = '';
  const listeners = new Set<() => void>();
  return {
    get: () => text,
    set(next) {
      if (next === text) return;
      text = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A draft that lives as long as the component that makes it. */
export const useDraft = (): Draft => useState(createDraft)[0];

/** The draft's text, redrawing the caller (alone) as it changes. */
export const useDraftText = (draft: Draft): string => useSyncExternalStore(draft.subscribe, draft.get);
