import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Issue 26 (relay on PostgreSQL, docs/perf/streaming-relay-diary.md round 12): the sweeper's index of replies by
 * state and last checkpoint held every message, so each message saved and each reply ended added an entry to it.
 * It now holds only the replies being written (`streaming`, `awaiting_approval`), the only ones the sweeper looks
 * for: a question and an ended reply no longer write to it, and it stays as small as the replies under way.
 * Queries that use it name the states as literals (replies.repository.ts), so the planner can match them.
 */
export const liveRepliesIndex: Migration = {
  async up(db) {
    await db.schema.dropIndex('messages_status_updated').execute();
    await sql`create index messages_live_updated on messages (updated_at)
      where status in ('streaming', 'awaiting_approval')`.execute(db);
  },
};
