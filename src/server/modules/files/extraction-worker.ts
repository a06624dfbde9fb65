import { Worker } from 'node:worker_threads';
import type { Chunk } from './chunk';
import type { DocumentFormat } from './file-formats';

export interface ExtractionRequest {
  bytes: Uint8Array;
  format: DocumentFormat;
}

export type ExtractionOutcome =
  | { ok: true; chunks: Chunk[] }
  /** `error` is for the file's owner; `detail`, when present, only for the log. */
  | { ok: false; error: string; detail?: string };

export interface ExtractionLimits {
  timeoutMs: number;
  /** V8 heap of the worker; the file's bytes live outside it. */
  maxMemoryMb: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 120_000, maxMemoryMb: 384 };

export class ExtractionAborted extends Error {}

const ENTRY = new URL('./extract.worker.ts', import.meta.url).href;
// The server runs from TypeScript sources through tsx; a worker starts without its loader, so it registers it.
const BOOTSTRAP = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })`;

/**
 * Extracts and chunks a document in a worker thread of its own: a parser that loops or balloons is stopped by
 * the timeout or the heap limit, and never blocks the server's event loop. Rejects only when `signal` aborts.
 */
export function extractInWorker(
  request: ExtractionRequest,
  limits: ExtractionLimits,
  signal?: AbortSignal,
): Promise<ExtractionOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const finish = (outcome: ExtractionOutcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => finish(new ExtractionAborted('extraction stopped'));
    const timer = setTimeout(
      () =>
        finish({ ok: false, error: `Reading this file took longer than ${Math.round(limits.timeoutMs / 1000)} s.` }),
      limits.timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (outcome: ExtractionOutcome) => finish(outcome));
    worker.once('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, error: 'This file needs more memory to read than the server allows.' }
          : { ok: false, error: 'This file could not be read.', detail: String(err) },
      ),
    );
    worker.once('exit', () => finish({ ok: false, error: 'This file could not be read.', detail: 'worker exited' }));
    // A copy goes to the worker, so the caller's buffer stays usable (the job stores nothing from it).
    worker.postMessage(request);
  });
}
