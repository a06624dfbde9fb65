import type { BotSnapshot } from '@shared/contracts/bot-versions';
import type { Executor } from '../../db/database';
import type { ReplyBot } from '../bots/bots.repository';
import { findVersionOf } from '../bots/versions.service';

/** Who a reply is written for: the bot's owner chatting in the app, or anyone else (links, Explore, widget, APIs). */
export type ReplyAudience = 'owner' | 'others';

/** Versions are never changed once written, so the snapshots of the few published ones can be kept. */
const CACHED_SNAPSHOTS = 500;

/**
 * The bot as everyone but its owner gets it (decisions §1, decision 0043): its published version's prompt and
 * settings over the bot's row (its owner, sharing and knowledge stay the bot's own). Until the first release, or
 * when the latest version is the published one, the bot as it is.
 */
export function publishedVersions(db: Executor) {
  const snapshots = new Map<string, BotSnapshot>();

  async function snapshotOf(botId: number, version: number): Promise<BotSnapshot | undefined> {
    const key = `${botId}:${version}`;
    const cached = snapshots.get(key);
    if (cached) {
      // Least recently used first out: a read moves the entry to the end.
      snapshots.delete(key);
      snapshots.set(key, cached);
      return cached;
    }
    const found = (await findVersionOf(db, botId, version))?.snapshot;
    if (!found) return undefined;
    snapshots.set(key, found);
    if (snapshots.size > CACHED_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value as string);
    return found;
  }

  return {
    async of<B extends ReplyBot>(bot: B, audience: ReplyAudience): Promise<B> {
      const published = bot.publishedVersion;
      if (audience === 'owner' || published === null || published === bot.version) return bot;
      const snapshot = await snapshotOf(bot.id, published);
      if (!snapshot) return bot;
      const { name, description, purpose, icon, capabilities, config } = snapshot;
      return { ...bot, name, description, purpose, icon, capabilities, config, version: published };
    },
  };
}
export type PublishedVersions = ReturnType<typeof publishedVersions>;
