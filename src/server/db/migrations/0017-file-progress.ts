import type { Migration } from './migration';

/**
 * How far a processing file's reading has come (issue 22 item 9): pages read by OCR out of the pages without a
 * text layer. Both null when nothing is being reported: before OCR starts, for files that need none, and once
 * the file is ready or failed.
 */
export const fileProgress: Migration = {
  async up(db) {
    await db.schema.alterTable('files').addColumn('progress_done', 'integer').execute();
    await db.schema.alterTable('files').addColumn('progress_total', 'integer').execute();
  },
};
