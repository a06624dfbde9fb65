import {
  adminSettingsSchema,
  type AdminSettings,
  type Limits,
  type PatchAdminSettingsBody,
} from '@shared/contracts/admin';
import type { Role } from '@shared/contracts/auth';
import { requireEnabledModel, type ModelCatalog } from '../../ai/model-catalog';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { readSettings, writeSetting } from './settings.repository';

export interface SettingsDeps {
  db: Db;
  clock: Clock;
}

const NO_LIMITS: Limits = { dailyTokens: null, dailyReplies: null };

/** What an instance that nobody configured does: open registration, the environment's model, no limits. */
export const DEFAULT_SETTINGS: AdminSettings = {
  registrationMode: 'open',
  defaultModels: { chat: null, promptGeneration: null, titles: null, judge: null, embeddings: null },
  defaultLimits: { user: NO_LIMITS, admin: NO_LIMITS, superadmin: NO_LIMITS },
};

/**
 * The instance's settings, each key over its default. A stored value that no longer parses (a field added or
 * renamed since) reads as the default rather than failing every request that needs it.
 */
export async function getAdminSettings(deps: Pick<SettingsDeps, 'db'>): Promise<AdminSettings> {
  const stored = await readSettings(deps.db.kysely);
  const shape = adminSettingsSchema.shape;
  return {
    registrationMode: shape.registrationMode.catch(DEFAULT_SETTINGS.registrationMode).parse(stored.registrationMode),
    defaultModels: shape.defaultModels
      .catch(DEFAULT_SETTINGS.defaultModels)
      .parse({ ...DEFAULT_SETTINGS.defaultModels, ...(stored.defaultModels as object | undefined) }),
    defaultLimits: shape.defaultLimits
      .catch(DEFAULT_SETTINGS.defaultLimits)
      .parse({ ...DEFAULT_SETTINGS.defaultLimits, ...(stored.defaultLimits as object | undefined) }),
  };
}

/** Merges the fields sent into the stored settings; a limit or model left out keeps its value. */
export async function updateAdminSettings(
  deps: SettingsDeps & { models: ModelCatalog },
  body: PatchAdminSettingsBody,
): Promise<AdminSettings> {
  for (const id of Object.values(body.defaultModels ?? {})) await requireEnabledModel(deps.models, id);
  const current = await getAdminSettings(deps);
  const now = deps.clock.now().toISOString();
  const db = deps.db.kysely;
  if (body.registrationMode) await writeSetting(db, 'registrationMode', body.registrationMode, now);
  if (body.defaultModels) {
    await writeSetting(db, 'defaultModels', { ...current.defaultModels, ...body.defaultModels }, now);
  }
  if (body.defaultLimits) {
    const limits = current.defaultLimits;
    const merged = Object.fromEntries(
      (Object.keys(limits) as Role[]).map((role) => [role, { ...limits[role], ...body.defaultLimits?.[role] }]),
    );
    await writeSetting(db, 'defaultLimits', merged, now);
  }
  return getAdminSettings(deps);
}
