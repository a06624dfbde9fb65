import type { Migration } from './migration';

/**
 * Each uploaded file's SHA-256 (issue 25, decision 0043): a bot's versions record the knowledge set they answered
 * from, file by file, so two versions compare on knowledge too. Files uploaded before have none (null).
 */
export const knowledgeHashes: Migration = {
  async up(db) {
    await db.schema.alterTable('files').addColumn('content_hash', 'varchar(64)').execute();
  },
};
