import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { migrated, type TestDb } from './databases';

/**
 * A migrated database on PGlite (PostgreSQL compiled to WebAssembly, in this process) with the pgvector extension
 * available: the PostgreSQL server the tests share has no pgvector, and no package these machines reach adds it.
 * Reached through node-postgres, as the server reaches PostgreSQL, one connection at a time.
 */
export async function createPgliteDb(): Promise<TestDb> {
  const lite = await PGlite.create({ extensions: { vector } });
  const target = { kind: 'postgres' as const, url: '', pool: { ...createPgConfig(lite), max: 1 } };
  return migrated(target, () => lite.close());
}
