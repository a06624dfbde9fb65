import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Releases (issue 25, decision 0043). `bots.published_version`: the version everyone but the owner gets (null
 * until the first release: everyone gets the latest). `bots.release_gate`: the owner's gate as JSON, null for the
 * defaults. One row per attempt to publish: `checking` while its evaluations run, then `published`, `blocked` or
 * `failed`; at most one `checking` per bot (a partial unique index). What the gate found is kept as JSON
 * (`verdict`), the owner's reason when they published anyway (`override_reason`).
 */
export const releases: Migration = {
  async up(db, t) {
    await db.schema.alterTable('bots').addColumn('published_version', 'integer').execute();
    await db.schema.alterTable('bots').addColumn('release_gate', t.json).execute();
    await db.schema
      .createTable('bot_releases')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('skip_gate', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('override_reason', 'text')
      // The version that was published when this release was asked for: what it is compared with.
      .addColumn('baseline_version', 'integer')
      .addColumn('evaluation_id', 'integer')
      .addColumn('baseline_evaluation_id', 'integer')
      .addColumn('verdict', t.json)
      .addColumn('message', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('decided_at', t.timestamp)
      .execute();
    await db.schema.createIndex('bot_releases_bot').on('bot_releases').columns(['bot_id', 'id']).execute();
    await db.schema
      .createIndex('bot_releases_one_checking')
      .on('bot_releases')
      .column('bot_id')
      .unique()
      .where(sql.ref('status'), '=', 'checking')
      .execute();
  },
};
