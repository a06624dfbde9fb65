import type { Migration } from './migration';

/**
 * Which stage a processing file's progress counts (issue 26): `pages` whose text was read, then `ocr` pages read
 * by OCR. Null with the counts (migration 0017); rows written before this count OCR pages.
 */
export const fileProgressStage: Migration = {
  async up(db) {
    await db.schema.alterTable('files').addColumn('progress_stage', 'text').execute();
  },
};
