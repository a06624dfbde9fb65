import { DEFAULT_PREFERENCES, preferencesSchema, type Preferences } from '@shared/contracts/preferences';
import type { Db } from '../../db/database';
import { findPreferences, savePreferences } from './preferences.repository';

export interface PreferencesDeps {
  db: Db;
}

/** What the user saved, or the defaults; a stored value that no longer fits the contract counts as unsaved. */
export async function getPreferences(deps: PreferencesDeps, userId: number): Promise<Preferences> {
  const parsed = preferencesSchema.safeParse(await findPreferences(deps.db.kysely, userId));
  return parsed.success ? parsed.data : DEFAULT_PREFERENCES;
}

/** Replaces them whole: an empty `pinnedBots` is kept as empty (decisions §1). Ids are kept in order, once. */
export async function putPreferences(deps: PreferencesDeps, userId: number, body: Preferences): Promise<Preferences> {
  const preferences = { pinnedBots: [...new Set(body.pinnedBots)], darkMode: body.darkMode };
  await savePreferences(deps.db.kysely, userId, preferences);
  return preferences;
}
