import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Evaluations run a bot's test set (its example queries) on one of its versions: each answer is stored with a
 * judge's pass/fail verdict and reason, so two versions can be compared query by query.
 */
export const evaluations: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('evaluations')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('bot_version', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('evaluations_bot').on('evaluations').columns(['bot_id', 'id']).execute();
    // One running evaluation per bot, held by the database so two instances cannot both start one.
    await db.schema
      .createIndex('evaluations_one_running')
      .on('evaluations')
      .column('bot_id')
      .unique()
      .where(sql.ref('status'), '=', 'running')
      .execute();

    await db.schema
      .createTable('evaluation_results')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('evaluation_id', 'integer', (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
      .addColumn('ord', 'integer', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('answer', 'text')
      .addColumn('verdict', 'varchar(10)')
      .addColumn('reason', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('evaluation_results_evaluation')
      .on('evaluation_results')
      .columns(['evaluation_id', 'ord'])
      .execute();
  },
};
