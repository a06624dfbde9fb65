import { type Compilable, CompiledQuery, type DialectAdapter, type RawBuilder } from 'kysely';
import type { Executor } from './database';

/** Stands for a call's value while the query is built; the compiled query's parameters say where it goes. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Each of the build callback's values, by name. */
const placeholders = new Proxy({} as Record<string, Placeholder>, {
  get: (_, name) => new Placeholder(String(name)),
});

/** Names of the prepared queries' SQL texts, for PostgreSQL's named statements (dialect.ts). */
const names = new Map<string, string>();

export const statementName = (sql: string) => names.get(sql);

interface Compiled {
  sql: string;
  /** Per parameter: the call's value of that name, or a constant written into the query when it was built. */
  slots: readonly unknown[];
}

/**
 * A query that Kysely builds and compiles once per database (dialect), then runs with each call's values. On the chat's
 * hot path a reply runs a dozen small statements, and building and compiling them (~60 µs each) cost as much as SQLite
 * running them (docs/perf/streaming-relay-diary.md, round 6). Kysely has no parameterised queries of its own
 * (kysely-params targets 0.24), so the values are placeholders while the query is built.
 *
 * The SQL text must not depend on the values: `build` receives placeholders typed as the values, so it may put
 * them in the query but never look at them (every one is defined; no `in` lists, no branches, no `is null`
 * picked by a value). Values are bound as they are given.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Executor, values: P) => Compilable<R> | RawBuilder<R>,
): (db: Executor, values: P) => Promise<R[]> {
  const byDialect = new WeakMap<DialectAdapter, Compiled>();
  const compile = (db: Executor): Compiled => {
    const adapter = db.getExecutor().adapter;
    let compiled = byDialect.get(adapter);
    if (!compiled) {
      const built = build(db, placeholders as unknown as P);
      const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      compiled = { sql: query.sql, slots: query.parameters };
      byDialect.set(adapter, compiled);
      if (!names.has(query.sql)) names.set(query.sql, `botty_${names.size + 1}`);
    }
    return compiled;
  };
  return async (db, values) => {
    const { sql, slots } = compile(db);
    const parameters = slots.map((slot) => (slot instanceof Placeholder ? values[slot.name] : slot));
    const result = await db.executeQuery<R>(CompiledQuery.raw(sql, parameters));
    return result.rows;
  };
}
