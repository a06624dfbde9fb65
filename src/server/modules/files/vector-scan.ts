import { Worker } from 'node:worker_threads';
import { threadScript } from '../../lib/beside-this-build';
import { RERANK, rankCopies, type Copies } from './vector-ranking';

export interface ScanRequest {
  id: number;
  copies: Copies;
  question: Float32Array;
}

export interface ScanAnswer {
  id: number;
  ids: number[];
}

interface Scan {
  request: ScanRequest;
  resolve: (ids: number[]) => void;
}

const SCAN_THREAD = threadScript(import.meta.url, 'vector-scan.worker');

/**
 * The copies' ranking (vector-ranking.ts) on a thread of its own (decision 0073): at 100,000 passages it is ~30 ms
 * of CPU a question, which on the event loop held every other request of the instance meanwhile, and on SQLite,
 * whose full-text ranking also runs on the event loop, made a question wait for the two one after the other. The
 * copies live in shared memory, so a question sends the thread views of them, not the vectors. Questions are
 * ranked one at a time, in order. Copies outside shared memory, or a thread that failed to start or ended, are
 * ranked here instead: a question is never lost to the thread. A bot too small to need ranking never starts it. Idle, the thread keeps nothing alive.
 */
export function createVectorScan(script = SCAN_THREAD) {
  let thread: Worker | null = null;
  const scans = new Map<number, Scan>();
  let nextId = 0;

  function start(): Worker {
    const w = new Worker(script.script, { eval: script.eval });
    w.unref();
    w.on('message', ({ id, ids }: ScanAnswer) => {
      const scan = scans.get(id);
      if (!scan) return;
      scans.delete(id);
      if (scans.size === 0) w.unref();
      scan.resolve(ids);
    });
    const lost = () => {
      if (thread === w) thread = null;
      for (const { request, resolve } of scans.values()) resolve(rankCopies(request.copies, request.question));
      scans.clear();
    };
    w.on('error', lost);
    w.on('exit', lost);
    return w;
  }

  return {
    /**
     * Starts the thread ahead of the first question that will need it, as copies of more than RERANK passages are
     * loaded when the server gets ready: starting it took ~45 ms of that question's time.
     */
    prepare() {
      thread ??= start();
    },
    /** Ids of the passages the copies put closest to the question (rankCopies), ranked on the scan thread. */
    rank(copies: Copies, question: Float32Array): Promise<number[]> {
      // A bot of RERANK passages or fewer has nothing to rank: all of them go to the exact cosine.
      if (copies.ids.length <= RERANK || !(copies.bits.buffer instanceof SharedArrayBuffer))
        return Promise.resolve(rankCopies(copies, question));
      const w = (thread ??= start());
      const request = { id: nextId++, copies, question };
      return new Promise((resolve) => {
        scans.set(request.id, { request, resolve });
        w.ref();
        w.postMessage(request satisfies ScanRequest);
      });
    },
    /** Ends the thread; questions it held are ranked here, and the next one starts another. */
    async close() {
      const w = thread;
      thread = null;
      await w?.terminate();
    },
  };
}

/** The instance's scan thread, shared by every database handle of the process. */
export const vectorScan = createVectorScan();
