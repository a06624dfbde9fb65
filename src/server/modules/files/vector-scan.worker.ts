import { parentPort } from 'node:worker_threads';
import type { ScanAnswer, ScanRequest } from './vector-scan';
import { rankCopies } from './vector-ranking';

/** Ranks a bot's copies, which arrive as views of the server's shared memory, for one question at a time. */
parentPort!.on('message', ({ id, copies, question }: ScanRequest) => {
  parentPort!.postMessage({ id, ids: rankCopies(copies, question) } satisfies ScanAnswer);
});
