import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the background connection copies what the WAL holds back into the database file. */
export const WAL_CHECKPOINT_MS = 1_000;

/**
 * How often the background connection looks for tables whose size moved enough that the query planner's
 * statistics no longer hold (a cheap look at each table's size; an analysis only for those, a few times as a
 * table grows from empty to 100,000 rows).
 */
export const STATISTICS_MS = 10_000;

/** SQLite's own default, put back if the background connection is lost, so the WAL never grows without bound. */
const AUTOCHECKPOINT_PAGES = 1_000;

/**
 * Rows an analysis reads per index (SQLite advises 100–1,000): approximate statistics, a bounded time (~15 ms for
 * the whole database at 100,000 knowledge passages).
 */
export const ANALYSIS_LIMIT = 1_000;

/**
 * `PRAGMA optimize` looking at every table, not only those this connection queried (0x10000), and analysing those
 * that need it (0x02): what SQLite advises for a connection that opens, and the only way a connection that runs no
 * queries of its own can find them.
 */
export const OPTIMIZE_ALL_TABLES = 'optimize = 0x10002';

// Plain JavaScript run by the worker (no loader needed): a connection of its own on the same file, checkpointing
// without waiting for readers or writers (PASSIVE), then once more as it closes, and refreshing the planner's
// statistics. A statement that fails throws, which ends the worker with that error: the server's connection then
// checkpoints itself again.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// As a plain Error: the driver's own error class reaches the parent thread without its message.
const plain = (run) => {
  try { return run(); } catch (err) { throw new Error(String((err && err.message) || err)); }
};
const db = plain(() => new Database(workerData.path, { fileMustExist: true }));
db.pragma('busy_timeout = 5000');
db.pragma('analysis_limit = ' + workerData.analysisLimit);
const checkpoint = () => plain(() => db.pragma('wal_checkpoint(PASSIVE)'));
const statistics = () => plain(() => db.pragma(workerData.optimize));
const timers = [setInterval(checkpoint, workerData.checkpointEveryMs), setInterval(statistics, workerData.statisticsEveryMs)];
parentPort.once('message', () => {
  for (const timer of timers) clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface SqliteUpkeep {
  /** Ends the background connection after a last checkpoint; call once the main connection is closed. */
  stop(): Promise<void>;
}

/**
 * SQLite's upkeep off the event loop, on a connection of its own in a worker thread:
 * - WAL checkpoints (issue 26, docs/perf/streaming-relay-diary.md round 12). By default the commit that takes the
 *   WAL past 1,000 pages copies it into the database and syncs the file, on the connection that committed: with the
 *   server's one connection that is the event loop, held 1–10 ms at a time (about 60 % of the commits' time under
 *   500 concurrent replies). SQLite's advice for this: turn the automatic checkpoints off and run them from another
 *   thread. Should the worker fail, the automatic checkpoints come back, and `onLost` hears why.
 * - The query planner's statistics (decision 0074): without them SQLite guesses how many rows each index gives, and
 *   read a bot's 50 closest passages by going through every passage of its ready files (15 ms at 100,000 instead
 *   of 0.5). An analysis takes the write lock while it runs; the server's writes wait for it, rarely and briefly.
 *   The server's connection picks up what this one writes (the schema's version moves).
 */
export function upkeepInBackground(
  database: SQLite.Database,
  path: string,
  {
    checkpointEveryMs = WAL_CHECKPOINT_MS,
    statisticsEveryMs = STATISTICS_MS,
    onLost,
  }: { checkpointEveryMs?: number; statisticsEveryMs?: number; onLost?: (reason: string) => void } = {},
): SqliteUpkeep {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path,
      checkpointEveryMs,
      statisticsEveryMs,
      analysisLimit: ANALYSIS_LIMIT,
      optimize: OPTIMIZE_ALL_TABLES,
    },
  });
  // It must not keep a process alive that has nothing else to do.
  worker.unref();
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping = false;
  let failure: string | undefined;
  worker.on('error', (err) => (failure = err.message));
  // Every way the worker ends comes here, after its error if it had one.
  worker.on('exit', (code) => {
    if (stopping || !database.open) return;
    database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    onLost?.(failure ?? `the worker exited (${code})`);
  });
  database.pragma('wal_autocheckpoint = 0');
  return {
    async stop() {
      stopping = true;
      // Held by the process again until its last checkpoint is done: otherwise a process with nothing else to do
      // would end at once, the worker with it, and leave the WAL behind.
      worker.ref();
      worker.postMessage('stop');
      await ended;
    },
  };
}
