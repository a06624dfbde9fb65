import type { Db, DbScope } from './database';
import { inSharedTransaction } from './shared-transaction';

/**
 * Runs a request's writes atomically, the way its engine does that cheapest. SQLite: in a transaction shared with
 * the requests of the same turn of the event loop (group commit; every write goes through one connection, and the
 * commit is most of the cost). PostgreSQL: in a transaction of its own, or, when the caller knows the work is one
 * statement (`oneStatement`, atomic by itself, and reads around it see the same in READ COMMITTED or out of a
 * transaction), without BEGIN and COMMIT: two round trips less on the way to a reply's first token.
 */
export function writeAtomically<T>(
  db: Db,
  work: (scope: DbScope) => Promise<T>,
  options: { oneStatement?: boolean } = {},
): Promise<T> {
  if (db.kind === 'sqlite') return inSharedTransaction(db.kysely, (tx) => work({ kysely: tx, kind: db.kind }));
  if (options.oneStatement) return work(db);
  return db.kysely.transaction().execute((tx) => work({ kysely: tx, kind: db.kind }));
}

/** In a transaction of its own on either engine, for work that must not share a commit. */
export const inTransaction = <T>(db: Db, work: (scope: DbScope) => Promise<T>): Promise<T> =>
  db.kysely.transaction().execute((tx) => work({ kysely: tx, kind: db.kind }));

/**
 * Each statement is a round trip to a database server (PostgreSQL): work that does not need a write's result is
 * worth starting before the write ends. On SQLite a statement is a function call.
 */
export const hasRoundTrips = (db: Db) => db.kind === 'postgres';
