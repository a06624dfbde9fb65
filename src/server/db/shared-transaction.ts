import type { Kysely, Transaction } from 'kysely';
import { batchPerTurn } from '../lib/turn-batch';
import type { Database } from './database';

interface Unit {
  work: (tx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Work of one turn is committed in transactions of at most this many units: a burst of requests made one transaction of
 * hundreds, whose first caller waited for every other one's work before its commit (a reply's first token waits for
 * it), and which cost more SQLite time than several smaller ones (docs/perf/streaming-relay-diary.md, round 9).
 */
export const SHARED_TRANSACTION_MAX_UNITS = 32;

const enqueue = batchPerTurn<Kysely<Database>, Unit>((db, units) => {
  for (let i = 0; i < units.length; i += SHARED_TRANSACTION_MAX_UNITS) {
    void runUnits(db, units.slice(i, i + SHARED_TRANSACTION_MAX_UNITS));
  }
});

/**
 * Runs `work` in a transaction of its own as far as it can tell, shared with the other work queued in the same
 * turn of the event loop (group commit). Each runs in a savepoint: one that throws is rolled back alone and its
 * caller gets its error; the others commit together. For SQLite, where the commit (the WAL write) is most of a
 * small transaction's cost and all writes go through one connection anyway.
 */
export function inSharedTransaction<T>(
  db: Kysely<Database>,
  work: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => enqueue(db, { work, resolve: resolve as Unit['resolve'], reject }));
}

async function runUnits(db: Kysely<Database>, units: Unit[]) {
  if (units.length === 1) {
    const [unit] = units as [Unit];
    return db.transaction().execute(unit.work).then(unit.resolve, unit.reject);
  }
  const outcomes: Outcome[] = [];
  const trx = await db
    .startTransaction()
    .execute()
    .catch((error: unknown) => {
      for (const unit of units) unit.reject(error);
    });
  if (!trx) return;
  try {
    for (const [i, unit] of units.entries()) {
      const name = `unit_${i}`;
      const point = await trx.savepoint(name).execute();
      try {
        outcomes.push({ ok: true, value: await unit.work(point) });
      } catch (error) {
        outcomes.push({ ok: false, error });
        await point.rollbackToSavepoint(name).execute();
      }
      await point.releaseSavepoint(name).execute();
    }
    await trx.commit().execute();
  } catch (error) {
    await trx
      .rollback()
      .execute()
      .catch(() => {});
    for (const unit of units) unit.reject(error);
    return;
  }
  units.forEach((unit, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) unit.resolve(outcome.value);
    else unit.reject(outcome.error);
  });
}
