import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely';
import type pg from 'pg';
import type { Database, Db } from './database';
import { statementName } from './prepared-query';
import { ANALYSIS_LIMIT, OPTIMIZE_ALL_TABLES, upkeepInBackground } from './sqlite-upkeep';

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string }
  | {
      kind: 'postgres';
      url: string;
      searchPath?: string;
      /** The pool's own settings over ours: a PostgreSQL reached another way than a socket (tests' PGlite). */
      pool?: pg.PoolConfig;
    };

const PG_INT8 = 20;
const STATEMENT_CACHE_SIZE = 500;
const PG_TIMESTAMPTZ = 1184;

/** better-sqlite3 binds neither booleans nor Dates; convert them once here so repositories stay dialect-free. */
function toSqliteParam(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

function sqliteDatabase(path: string): { database: SQLite.Database; driver: SqliteDatabase } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // The planner's statistics brought up to date as SQLite advises for a connection that opens (decision 0074); the
  // server's background connection keeps them so as the tables grow (sqlite-upkeep.ts).
  database.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  database.pragma(OPTIMIZE_ALL_TABLES);
  const convert = (params: ReadonlyArray<unknown>) => params.map(toSqliteParam);
  // Kysely calls prepare(sql) then all/run/iterate(params); wrapping those is the narrowest place to convert.
  // Preparing is a large share of a small query's cost, and the app issues the same few hundred SQL texts.
  const statements = new Map<string, SQLite.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    database,
    driver: {
      prepare(sql) {
        const statement = prepared(sql);
        return {
          reader: statement.reader,
          all: (params) => statement.all(...convert(params)),
          run: (params) => statement.run(...convert(params)),
          iterate: (params) => statement.iterate(...convert(params)),
        };
      },
      close: () => database.close(),
    },
  };
}

/** How long a request waits for a pooled connection before the database counts as unavailable (503). */
const PG_CONNECT_TIMEOUT_MS = 3_000;

// The driver is loaded with the first connection, so a SQLite instance never loads it (decision 0055).
async function postgresPool(
  { url, searchPath, pool: own }: Extract<DatabaseTarget, { kind: 'postgres' }>,
  onError: (err: Error) => void,
) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    // Half-open connections after a network blip are found by the kernel instead of hanging a request.
    keepAlive: true,
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === PG_INT8) return (v: string) => Number(v);
        if (oid === PG_TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
    ...own,
  });
  // An idle client whose connection the server closed (restart, failover, pg_terminate_backend) emits 'error'
  // on the pool; unheard, that kills the process. The pool already drops the client and connects anew on demand.
  pool.on('error', onError);
  // A client that is checked out has no pool listener: its query rejects (the request answers 503), but the
  // client's own 'error' event would still be unhandled. On release the pool sees it is broken and drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** How a connection plans statements with parameters: PostgreSQL's `plan_cache_mode`, as last set on it. */
type Planning = 'generic' | 'custom' | 'unknown';

const PLANNING_SQL: Record<Exclude<Planning, 'unknown'>, string> = {
  generic: 'set plan_cache_mode = force_generic_plan',
  custom: 'set plan_cache_mode = auto',
};

/**
 * The pool as Kysely sees it, with the SQL of prepared queries (prepared-query.ts) sent as named statements:
 * PostgreSQL parses each once per connection instead of on every call. Only those, a fixed set of texts, so the
 * statements a connection keeps stay few.
 *
 * Named statements run with generic plans, planned once per connection: left to choose, PostgreSQL planned the
 * chat's again at every call (0.2–1 ms each, on the way to a reply's first token; decision 0058). Every other
 * statement with parameters keeps plans made for its values. The mode is a setting of the connection, so it is
 * switched only when the next statement wants the other one, and forgotten after a rollback, which undoes a
 * setting changed inside the transaction (PostgreSQL answers ROLLBACK to the commit of a failed one, too).
 */
function namingStatements(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let planning: Planning = 'unknown';
    return {
      query: (async (text: string, values?: unknown[]) => {
        const name = statementName(text);
        const wanted: Planning | undefined = name ? 'generic' : values?.length ? 'custom' : undefined;
        if (wanted && wanted !== planning) {
          await client.query(PLANNING_SQL[wanted]);
          planning = wanted;
        }
        const result = await client.query(name ? { name, text, values } : { text, values });
        // A rollback (to a savepoint too), or the commit of a failed transaction, which PostgreSQL answers as one.
        if (result.command === 'ROLLBACK') planning = 'unknown';
        return result;
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) clients.set(client, (wrapped = wrap(client)));
      return wrapped;
    },
    end: () => pool.end(),
  };
}

export interface OpenDatabaseOptions {
  /** Told about connections the database dropped while idle; the pool replaces them by itself. */
  onConnectionError?: (err: Error) => void;
  /**
   * SQLite (a file): WAL checkpoints and the planner's statistics on a connection of their own in a worker thread,
   * off the event loop (sqlite-upkeep.ts). The server's; tests and tools that open a database keep SQLite's
   * automatic checkpoints and the statistics taken as they open it.
   */
  upkeepInBackground?: boolean;
  /** Told when the background upkeep stopped working (SQLite's automatic checkpoints are then back). */
  onUpkeepLost?: (reason: string) => void;
}

export function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): Db {
  if (target.kind === 'sqlite') {
    const { database, driver } = sqliteDatabase(target.path);
    const upkeep =
      options.upkeepInBackground && target.path !== ':memory:'
        ? upkeepInBackground(database, target.path, { onLost: options.onUpkeepLost })
        : undefined;
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: driver }) });
    return {
      kysely,
      kind: 'sqlite',
      // The server's connection first, then the background one: the last to close leaves no WAL behind.
      close: async () => {
        await kysely.destroy();
        await upkeep?.stop();
      },
    };
  }
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => namingStatements(await postgresPool(target, options.onConnectionError ?? (() => {}))),
    }),
  });
  return { kysely, kind: 'postgres', schema: target.searchPath, close: () => kysely.destroy() };
}
