import type { Preferences } from '@shared/contracts/preferences';
import { apiRequest } from '@/lib/request';
import { getAuthToken, readLocal, removeLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';

/**
 * Pinned bots and the dark-mode choice follow the user to other devices (decisions §1): they are saved with
 * the account, and local storage (`pinnedBots`, `theme`) stays the local copy that the app reads.
 */

/** The schema (and zod with it) loads when first needed: the theme, and so this module, is on every first page. */
async function localPreferences(): Promise<Preferences> {
  const { preferencesSchema } = await import('@shared/contracts/preferences');
  const theme = readLocal(STORAGE_KEYS.theme);
  let pinnedBots: number[] = [];
  try {
    const parsed = preferencesSchema.shape.pinnedBots.safeParse(JSON.parse(readLocal(STORAGE_KEYS.pinnedBots) ?? '[]'));
    if (parsed.success) pinnedBots = parsed.data;
  } catch {
    // Unreadable local copy: nothing pinned.
  }
  return { pinnedBots, darkMode: theme === 'dark' ? true : theme === 'light' ? false : null };
}

/** Writes a local key the way another tab would, so the pin and theme stores that listen for it follow. */
function writeLocalAndTell(key: string, value: string) {
  if (readLocal(key) === value) return;
  writeLocal(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
}

/**
 * Saves the local copy with the account; a failure only means the other devices learn it later. Until it is
 * saved, this device's copy is marked unsaved (before anything is awaited), so a page loaded in the meantime — a
 * reload right after reordering the pins — sends it again instead of taking the account's older copy over it.
 */
export function saveAccountPreferences(): void {
  if (!getAuthToken()) return;
  const save = `${Date.now()}-${Math.random()}`;
  writeLocal(STORAGE_KEYS.preferencesUnsaved, save);
  localPreferences()
    .then((preferences) => apiRequest('PUT', '/api/auth/preferences', preferences))
    .then(() => {
      // A later save still under way keeps its own mark.
      if (readLocal(STORAGE_KEYS.preferencesUnsaved) === save) removeLocal(STORAGE_KEYS.preferencesUnsaved);
    })
    .catch(() => {});
}

const isDefault = (p: Preferences) => p.pinnedBots.length === 0 && p.darkMode === null;

/**
 * Whether this device keeps any preference at all, read without the schema: an account and a device that never
 * chose any (most loads of a new account) then need neither it nor zod (decision 0053).
 */
const keepsLocalPreferences = () =>
  readLocal(STORAGE_KEYS.theme) !== null || (readLocal(STORAGE_KEYS.pinnedBots) ?? '[]') !== '[]';

/**
 * On load and on sign-in: the account's preferences replace the local copy; an account that never saved any takes
 * this device's instead. On load, a local copy not saved yet (see saveAccountPreferences) is saved instead; a
 * sign-in always takes the account's (the mark may be another account's).
 */
export async function applyAccountPreferences({ signingIn = false }: { signingIn?: boolean } = {}): Promise<void> {
  if (signingIn) removeLocal(STORAGE_KEYS.preferencesUnsaved);
  else if (readLocal(STORAGE_KEYS.preferencesUnsaved) !== null) return saveAccountPreferences();
  let saved: Preferences;
  try {
    saved = await apiRequest<Preferences>('GET', '/api/auth/preferences');
  } catch {
    return;
  }
  if (isDefault(saved) && keepsLocalPreferences() && !isDefault(await localPreferences()))
    return saveAccountPreferences();
  writeLocalAndTell(STORAGE_KEYS.pinnedBots, JSON.stringify(saved.pinnedBots));
  if (saved.darkMode !== null) writeLocalAndTell(STORAGE_KEYS.theme, saved.darkMode ? 'dark' : 'light');
}
