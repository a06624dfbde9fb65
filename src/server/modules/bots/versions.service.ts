import type { BotVersion, BotVersionSummary } from '@shared/contracts/bot-versions';
import { VERSION_MESSAGES } from '@shared/contracts/bot-versions';
import type { Bot } from '@shared/contracts/bots';
import type { Executor } from '../../db/database';
import { AppError } from '../../lib/errors';
import { requireOwnedBot, updateBot, type BotsDeps } from './bots.service';
import { findVersion, findVersions } from './versions.repository';

export async function listVersions(deps: BotsDeps, userId: number, botId: number): Promise<BotVersionSummary[]> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return findVersions(deps.db.kysely, botId);
}

/** The bot's version `number`, whoever asks (the caller checked who may see it). */
export const findVersionOf = (db: Executor, botId: number, number: number) => findVersion(db, botId, number);

export async function getVersion(deps: BotsDeps, userId: number, botId: number, number: number): Promise<BotVersion> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  const version = await findVersion(deps.db.kysely, botId, number);
  if (!version) throw new AppError('NOT_FOUND', VERSION_MESSAGES.notFound);
  return version;
}

/**
 * Brings an earlier version back by saving its snapshot, which writes a new version equal to it (the history
 * only grows). Restoring what is already current changes nothing and writes nothing.
 */
export async function restoreVersion(deps: BotsDeps, userId: number, botId: number, number: number): Promise<Bot> {
  const { snapshot } = await getVersion(deps, userId, botId, number);
  // The snapshot's config replaces the current one whole: a key set since then must go, not be merged over.
  const current = await requireOwnedBot(deps.db.kysely, userId, botId);
  const cleared = Object.fromEntries(Object.keys(current.config).map((key) => [key, undefined]));
  return updateBot(
    deps,
    userId,
    botId,
    { ...snapshot, config: { ...cleared, ...snapshot.config } },
    { restoredFrom: number },
  );
}
