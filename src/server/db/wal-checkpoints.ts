import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the background connection copies what the WAL holds back into the database file. */
export const WAL_CHECKPOINT_MS = 1_000;

/** SQLite's own default, put back if the background connection is lost, so the WAL never grows without bound. */
const AUTOCHECKPOINT_PAGES = 1_000;

// Plain JavaScript run by the worker (no loader needed): a connection of its own on the same file, checkpointing
// without waiting for readers or writers (PASSIVE), then once more as it closes. A checkpoint that fails throws,
// which ends the worker with that error: the server's connection then checkpoints itself again.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// As a plain Error: the driver's own error class reaches the parent thread without its message.
const plain = (run) => {
  try { return run(); } catch (err) { throw new Error(String((err && err.message) || err)); }
};
const db = plain(() => new Database(workerData.path, { fileMustExist: true }));
db.pragma('busy_timeout = 5000');
const checkpoint = () => plain(() => db.pragma('wal_checkpoint(PASSIVE)'));
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpoints {
  /** Ends the background connection after a last checkpoint; call once the main connection is closed. */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop (issue 26, docs/perf/streaming-relay-diary.md round 12). By
 * default the commit that takes the WAL past 1,000 pages copies it into the database and syncs the file, on the
 * connection that committed: with the server's one connection that is the event loop, held 1–10 ms at a time
 * (about 60 % of the commits' time under 500 concurrent replies). SQLite's advice for this: turn the automatic
 * checkpoints off and run them from another thread, here a worker with a connection of its own. Should that
 * worker fail, the automatic checkpoints come back, and `onLost` hears why.
 */
export function checkpointInBackground(
  database: SQLite.Database,
  path: string,
  { everyMs = WAL_CHECKPOINT_MS, onLost }: { everyMs?: number; onLost?: (reason: string) => void } = {},
): WalCheckpoints {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path, everyMs },
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
      worker.postMessage('stop');
      await ended;
    },
  };
}
