import { useState, useSyncExternalStore } from 'react';

/** Text held outside React's state, so that a change redraws only the components that read it. */
export interface TextStore {
  get(): string;
  set(text: string): void;
  subscribe(listener: () => void): () => void;
}

/**
 * The message being typed: a key press redraws the composer that shows it, not the chat panel above it with the
 * whole conversation (decision 0056). Sending reads it when it sends.
 */
export type Draft = TextStore;

export function createTextStore(): TextStore {
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
export const useDraft = (): Draft => useState(createTextStore)[0];

/** The draft's text, redrawing the caller (alone) as it changes. */
export const useDraftText = (draft: Draft): string => useSyncExternalStore(draft.subscribe, draft.get);
