import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db, DatabaseKind } from '../../src/server/db/database';
import { openDatabase, type OpenDatabaseOptions } from '../../src/server/db/dialect';
import { migrateToLatest } from '../../src/server/db/migrate';

/** SQLite always; PostgreSQL too whenever TEST_DATABASE_URL names one (CI sets it). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDb {
  db: Db;
  /** Where the same data can be opened again, e.g. to prove it survives a restart. */
  target: Parameters<typeof openDatabase>[0];
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database: a temporary SQLite file, or a PostgreSQL schema of its own. `options` as the server
 * opens its database (e.g. the benches' servers, with SQLite's checkpoints in the background as `main.ts` has them).
 */
export async function createTestDb(kind: DatabaseKind, options?: OpenDatabaseOptions): Promise<TestDb> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'botty-test-'));
    return migrated(
      { kind: 'sqlite', path: join(dir, 'botty.db') },
      async () => rmSync(dir, { recursive: true, force: true }),
      options,
    );
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return migrated(
    { kind: 'postgres', url, searchPath: schema },
    async () => {
      // A separate connection, so the schema goes even when a test already closed `db`.
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
    },
    options,
  );
}

/** Opens and migrates `target`; dropping closes it (if the test has not) and then removes its data. */
export async function migrated(
  target: TestDb['target'],
  removeData: () => Promise<void>,
  options?: OpenDatabaseOptions,
): Promise<TestDb> {
  const db = openDatabase(target, options);
  await migrateToLatest(db);
  return {
    db,
    target,
    async drop() {
      await db.close().catch(() => {});
      await removeData();
    },
  };
}

/** The same database through a connection of its own, as a second instance has; its drop leaves the data be. */
export const anotherConnection = (shared: TestDb): TestDb => ({
  db: openDatabase(shared.target),
  target: shared.target,
  drop: async () => {},
});
