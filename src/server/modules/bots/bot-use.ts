import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { COUNTER_GATHER_MS, coalescedWritesPer } from '../../lib/coalesced-writes';
import { addBotUses } from './bots.repository';

interface Uses {
  count: number;
  /** The latest use, the bot's lastUsed. */
  at: string;
}

const writeUses = coalescedWritesPer(
  (a: Uses, b: Uses): Uses => ({ count: a.count + b.count, at: a.at > b.at ? a.at : b.at }),
  (db: Kysely<Database>, botId: number, uses: Uses) => addBotUses(db, botId, uses.at, uses.count),
  { gatherMs: COUNTER_GATHER_MS },
);

/**
 * Counts a reply of the bot (usageCount, lastUsed). Every reply of a bot updates the same row, and on PostgreSQL the
 * updates of a row wait for each other's commit: the replies of a bot many people use at once queued behind one another
 * (12 ms per update at 500 concurrent replies, docs/perf/streaming-relay-diary.md round 8). Uses that come within a
 * moment of each other, or while the bot's count is being written, are added up and written together, so a bot has one
 * update under way per instance.
 */
export const recordBotUse = (db: Kysely<Database>, botId: number, at: string) => writeUses(db, botId, { count: 1, at });
