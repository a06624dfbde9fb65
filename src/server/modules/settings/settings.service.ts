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
import type { InstanceNotices } from '../../lib/instance-notices';
import { remembered } from '../../lib/remembered';
import { readSettings, writeSetting } from './settings.repository';

export interface SettingsDeps {
  db: Db;
  clock: Clock;
  notices: InstanceNotices;
}

const NO_LIMITS: Limits = { dailyTokens: null, dailyReplies: null };

/** What an instance that nobody configured does: open registration, the environment's model, no limits. */
export const DEFAULT_SETTINGS: AdminSettings = {
  registrationMode: 'open',
  defaultModels: { chat: null, promptGeneration: null, titles: null, judge: null, embeddings: null },
  defaultLimits: { user: NO_LIMITS, admin: NO_LIMITS, superadmin: NO_LIMITS },
};

/**
 * Every reply reads the settings (its model's default, its author's limits): remembered this long per database,
 * as sessions are (decision 0020). A change shows at once on every instance (decision 0051); within this lifetime
 * on the others when Redis is away.
 */
export const SETTINGS_REMEMBERED_MS = 5_000;

const settingsOf = remembered(SETTINGS_REMEMBERED_MS, async (db: Db) => parseSettings(await readSettings(db.kysely)));

/** `db`'s settings are read again after a change on any instance, not at the end of their lifetime. */
export const forgetSettingsOnChange = (notices: InstanceNotices, db: Db) =>
  notices.on('settings-changed', () => settingsOf.forget(db));

/**
 * The instance's settings, each key over its default. A stored value that no longer parses (a field added or
 * renamed since) reads as the default rather than failing every request that needs it.
 */
export const getAdminSettings = (deps: Pick<SettingsDeps, 'db'>): Promise<AdminSettings> => settingsOf.get(deps.db);

function parseSettings(stored: Record<string, unknown>): AdminSettings {
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
  // What is merged into must be what is stored now, not what this instance read a moment ago.
  settingsOf.forget(deps.db);
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
  settingsOf.forget(deps.db);
  await deps.notices.tell('settings-changed');
  return getAdminSettings(deps);
}
