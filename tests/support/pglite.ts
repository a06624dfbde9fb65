import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import type { Db } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/dialect';
import { migrateToLatest } from '../../src/server/db/migrate';

/**
 * A migrated database on PGlite (PostgreSQL compiled to WebAssembly, in this process) with the pgvector extension
 * available: the PostgreSQL server the tests share has no pgvector, and no package these machines reach adds it.
 * Reached through node-postgres, as the server reaches PostgreSQL, one connection at a time.
 */
export async function createPgliteDb(): Promise<{ db: Db; close(): Promise<void> }> {
  const lite = await PGlite.create({ extensions: { vector } });
  const db = openDatabase({ kind: 'postgres', url: '', pool: { ...createPgConfig(lite), max: 1 } });
  await migrateToLatest(db);
  return {
    db,
    async close() {
      await db.close();
      await lite.close();
    },
  };
}
