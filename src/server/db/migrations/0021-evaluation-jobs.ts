import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * Evaluations become jobs (decision 0042): queued in the database and run by whichever instance leases them
 * (`lease_until`, renewed as the run goes; a dead instance's lease expires and another resumes from the results
 * stored). The questions are kept with the run (`test_set`), so a resumed run asks what it was queued with. One
 * queued or running evaluation per bot. A result names its test case and the judge's 1–5 score, and its verdict
 * may be `judge_unavailable`. Runs left `running` by the old streamed evaluations ended with their page.
 */
export const evaluationJobs: Migration = {
  async up(db, t) {
    await db.updateTable('evaluations').set({ status: 'interrupted' }).where('status', '=', 'running').execute();
    // One column a statement: SQLite adds no more.
    for (const [name, type] of [
      ['lease_until', t.timestamp],
      ['release_id', 'integer'],
      ['test_set', t.json],
    ] as const) {
      await db.schema.alterTable('evaluations').addColumn(name, type).execute();
    }
    await db.schema.dropIndex('evaluations_one_running').execute();
    await db.schema
      .createIndex('evaluations_one_active')
      .on('evaluations')
      .column('bot_id')
      .unique()
      .where(sql.ref('status'), 'in', ['queued', 'running'])
      .execute();
    await db.schema.createIndex('evaluations_claim').on('evaluations').columns(['status', 'id']).execute();

    for (const [name, type] of [
      ['test_case_id', 'integer'],
      ['score', 'integer'],
    ] as const) {
      await db.schema.alterTable('evaluation_results').addColumn(name, type).execute();
    }
    if (t.kind === 'postgres') {
      await db.schema
        .alterTable('evaluation_results')
        .alterColumn('verdict', (c) => c.setDataType('varchar(20)'))
        .execute();
    }
    // A question is stored once per run, even when a run that overran its lease meets the one that took over.
    await db.schema
      .createIndex('evaluation_results_once')
      .on('evaluation_results')
      .columns(['evaluation_id', 'ord'])
      .unique()
      .execute();
  },
};
