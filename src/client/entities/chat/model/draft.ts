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

/**
 * Whether the draft holds more than spaces, redrawing the caller only when that changes: the composer's buttons
 * depend on it, not on each key (the text box itself holds the text, see ChatComposer).
 */
export const useDraftFilled = (draft: Draft): boolean =>
  useSyncExternalStore(draft.subscribe, () => draft.get().trim() !== '');
