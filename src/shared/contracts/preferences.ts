import { z } from 'zod';

/**
 * GET/PUT /api/auth/preferences: what follows the user to other devices (decisions §1). `pinnedBots` is the
 * pinned bots' ids in their order (the `pinnedBots` local-storage key stays the local copy); `darkMode` is
 * null until the user chooses.
 */
export const preferencesSchema = z.object({
  pinnedBots: z
    .array(z.number({ error: 'Pinned bots must be bot ids' }).int().positive())
    .max(100, 'At most 100 pinned bots'),
  darkMode: z.boolean({ error: 'Dark mode must be true, false or null' }).nullable(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const DEFAULT_PREFERENCES: Preferences = { pinnedBots: [], darkMode: null };
