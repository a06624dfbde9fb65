import type { Migration } from './migration';

/**
 * Each evaluation answer's faithfulness (issue 25, decision 0044): the share of its checkable sentences its sources
 * support, from the same support check as the chat's. Null for answers without sources, when the check could not
 * run, and in runs from before.
 */
export const evaluationFaithfulness: Migration = {
  async up(db) {
    await db.schema.alterTable('evaluation_results').addColumn('faithfulness', 'double precision').execute();
  },
};
