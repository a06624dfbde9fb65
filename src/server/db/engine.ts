import { PostgresAdapter } from 'kysely';
import type { DatabaseKind, Executor } from './database';

/**
 * The engine an executor runs on (the database or one of its transactions), read from the executor itself: for
 * a repository whose SQL differs by engine and that is handed a transaction, so that no service passes the engine
 * along (decision 0021).
 */
export const engineOf = (db: Executor): DatabaseKind =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
