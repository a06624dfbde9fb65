import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { coalescedWrites } from '../../lib/coalesced-writes';
import { addBotUses } from './bots.repository';

interface Uses {
  count: number;
  /** The latest use, the bot's lastUsed. */
  at: string;
}

const addUp = (a: Uses, b: Uses): Uses => ({ count: a.count + b.count, at: a.at > b.at ? a.at : b.at });

const recorders = new WeakMap<Kysely<Database>, (botId: number, uses: Uses) => Promise<void>>();

/**
 * Counts a reply of the bot (usageCount, lastUsed). Every reply of a bot updates the same row, and on PostgreSQL
 * the updates of a row wait for each other's commit: the replies of a bot many people use at once queued behind
 * one another (12 ms per update at 500 concurrent replies, decision 0013). Uses that come while the bot's count is
 * being written are added up and written together next, so a bot has one update under way per instance.
 */
export function recordBotUse(db: Kysely<Database>, botId: number, at: string): Promise<void> {
  let record = recorders.get(db);
  if (!record) {
    record = coalescedWrites(addUp, (id: number, uses: Uses) => addBotUses(db, id, uses.at, uses.count));
    recorders.set(db, record);
  }
  return record(botId, { count: 1, at });
}
