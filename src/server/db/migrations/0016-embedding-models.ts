import type { Migration } from './migration';

/**
 * Which embeddings model wrote each passage's vector (issue 23: the admin may choose another one), so a question
 * is only ever compared with vectors of the model that embeds it. Vectors written before hold null: they came
 * from the environment's LLM_EMBEDDING_MODEL, the only model there was.
 */
export const embeddingModels: Migration = {
  async up(db) {
    await db.schema.alterTable('file_chunks').addColumn('embedding_model', 'varchar(300)').execute();
  },
};
