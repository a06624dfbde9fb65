import { Migrator, type Migration as KyselyMigration, type MigrationResult } from 'kysely';
import type { Db } from './database';
import { accounts } from './migrations/0001-accounts';
import { bots } from './migrations/0002-bots';
import { conversations } from './migrations/0003-conversations';
import { files } from './migrations/0004-files';
import { replies } from './migrations/0005-replies';
import { conversationsSearch } from './migrations/0006-conversations-search';
import { keysAndShares } from './migrations/0007-keys-and-shares';
import { training } from './migrations/0008-training';
import { evaluations } from './migrations/0009-evaluations';
import { searchSpeed } from './migrations/0010-search-speed';
import { sharing } from './migrations/0011-sharing';
import { knowledgeRanking } from './migrations/0012-knowledge-ranking';
import { searchQueue } from './migrations/0013-search-queue';
import { widgetAppearance } from './migrations/0014-widget-appearance';
import { modelsAndPeople } from './migrations/0015-models-and-people';
import { embeddingModels } from './migrations/0016-embedding-models';
import { fileProgress } from './migrations/0017-file-progress';
import { mcpServers } from './migrations/0018-mcp-servers';
import { toolApprovals } from './migrations/0019-tool-approvals';
import { testCases } from './migrations/0020-test-cases';
import { evaluationJobs } from './migrations/0021-evaluation-jobs';
import { releases } from './migrations/0022-releases';
import { supportCheck } from './migrations/0023-support-check';
import { knowledgeHashes } from './migrations/0024-knowledge-hashes';
import { evaluationFaithfulness } from './migrations/0025-evaluation-faithfulness';
import { fileProgressStage } from './migrations/0026-file-progress-stage';
import { knowledgeGeneration } from './migrations/0027-knowledge-generation';
import { postgresSearchQueue } from './migrations/0028-postgres-search-queue';
import { liveRepliesIndex } from './migrations/0029-live-replies-index';
import { fastCompression } from './migrations/0030-fast-compression';
import { fileTermsByWord } from './migrations/0031-file-terms-by-word';
import { columnTypes, type Migration } from './migrations/migration';

/** Ordered by name; append new ones, never edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-bots': bots,
  '0003-conversations': conversations,
  '0004-files': files,
  '0005-replies': replies,
  '0006-conversations-search': conversationsSearch,
  '0007-keys-and-shares': keysAndShares,
  '0008-training': training,
  '0009-evaluations': evaluations,
  '0010-search-speed': searchSpeed,
  '0011-sharing': sharing,
  '0012-knowledge-ranking': knowledgeRanking,
  '0013-search-queue': searchQueue,
  '0014-widget-appearance': widgetAppearance,
  '0015-models-and-people': modelsAndPeople,
  '0016-embedding-models': embeddingModels,
  '0017-file-progress': fileProgress,
  '0018-mcp-servers': mcpServers,
  '0019-tool-approvals': toolApprovals,
  '0020-test-cases': testCases,
  '0021-evaluation-jobs': evaluationJobs,
  '0022-releases': releases,
  '0023-support-check': supportCheck,
  '0024-knowledge-hashes': knowledgeHashes,
  '0025-evaluation-faithfulness': evaluationFaithfulness,
  '0026-file-progress-stage': fileProgressStage,
  '0027-knowledge-generation': knowledgeGeneration,
  '0028-postgres-search-queue': postgresSearchQueue,
  '0029-live-replies-index': liveRepliesIndex,
  '0030-fast-compression': fastCompression,
  '0031-file-terms-by-word': fileTermsByWord,
};

export async function migrateToLatest(db: Db): Promise<void> {
  const types = columnTypes(db.kind);
  const migrations = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]): [string, KyselyMigration] => [name, { up: (k) => m.up(k, types) }]),
  );
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its bookkeeping tables across all schemas unless told which one is ours.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    // Kysely looks at the tables of every schema before it runs anything, and PostgreSQL fails that look-up when
    // another schema is dropped at that moment (tests' schemas come and go; so may a shared server's), as "does
    // not exist" or, caught mid-drop, "cache lookup failed for namespace": nothing has run then, so it is tried again.
    const lookUpRaced =
      !results &&
      /(schema|relation) "[^"]+" does not exist|cache lookup failed for (namespace|relation)/.test(String(error));
    if (lookUpRaced && attempt < 5) continue;
    return reportFailure(error, results);
  }
}

function reportFailure(error: unknown, results: MigrationResult[] | undefined) {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `Database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
