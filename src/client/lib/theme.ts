import { useSyncExternalStore } from 'react';
import { saveAccountPreferences } from '@/lib/preferences';
import { readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';

export type Theme = 'light' | 'dark';

const listeners = new Set<() => void>();

function systemQuery(): MediaQueryList {
  return window.matchMedia('(prefers-color-scheme: dark)');
}

function storedTheme(): Theme | null {
  const value = readLocal(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : null;
}

/** The explicit choice from Settings wins; without one the system preference decides. */
function currentTheme(): Theme {
  return storedTheme() ?? (systemQuery().matches ? 'dark' : 'light');
}

function apply(): void {
  const dark = currentTheme() === 'dark';
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

function changed(): void {
  apply();
  for (const listener of listeners) listener();
}

export function initTheme(): void {
  apply();
  systemQuery().addEventListener('change', changed);
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.theme) changed();
  });
}

export function setTheme(theme: Theme): void {
  writeLocal(STORAGE_KEYS.theme, theme);
  changed();
  saveAccountPreferences();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme);
}
