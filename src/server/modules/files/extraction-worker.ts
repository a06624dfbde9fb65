import { Worker } from 'node:worker_threads';
import type { FileProgress } from '@shared/contracts/files';
import { threadScript } from '../../lib/beside-this-build';
import type { Chunk } from './chunk';
import type { ExtractionPriority } from './background-priority';
import type { DocumentFormat } from './file-formats';

export interface ExtractionRequest {
  bytes: Uint8Array;
  format: DocumentFormat;
  /** poppler's `pdftotext` command, tried first for PDFs; null or absent: pdf.js only. */
  pdftotext?: string | null;
}

export type ExtractionOutcome =
  /** `notice`: what the owner should know about a file that was read (pages read by OCR, little text found). */
  | { ok: true; chunks: Chunk[]; notice: string | null }
  /** `error` is for the file's owner; `detail`, when present, only for the log. */
  | { ok: false; error: string; detail?: string };

export interface ExtractionLimits {
  timeoutMs: number;
  /** V8 heap of the worker; the file's bytes live outside it. */
  maxMemoryMb: number;
  /** poppler's `pdftotext` command when PDFs are read with it: the worker then starts its program host with itself. */
  pdftotext?: string | null;
  /** How far below the server's requests the worker, and the programs it starts, read (FILES_EXTRACTION_PRIORITY). */
  priority: ExtractionPriority;
}

/** What a worker is started with. */
export interface WorkerSetup {
  warmPoppler: boolean;
  priority: ExtractionPriority;
}

/** What the worker posts: progress while a document is read (its pages, then OCR), then its outcome. */
export type WorkerMessage = { progress: FileProgress } | { outcome: ExtractionOutcome };

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 120_000, maxMemoryMb: 384, priority: 'idle' };

export class ExtractionAborted extends Error {}

/** The worker's file: beside the built server's bundle (decision 0055), or its TypeScript source through tsx. */
const WORKER = threadScript(import.meta.url, 'extract.worker');

const COULD_NOT_READ = 'This file could not be read.';

/**
 * Extracts and chunks documents in a worker thread, one at a time: a parser that loops or balloons is stopped
 * by the timeout or the heap limit (the worker is then replaced), and never blocks the server's event loop.
 * The worker is kept between jobs, since starting one costs more than reading a small file.
 */
export function createExtractor(limits: ExtractionLimits) {
  let worker: Worker | null = null;

  function spawn(): Worker {
    const w = new Worker(WORKER.script, {
      eval: WORKER.eval,
      workerData: { warmPoppler: Boolean(limits.pdftotext), priority: limits.priority } satisfies WorkerSetup,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 32 },
    });
    // An idle worker must not keep the process alive.
    w.unref();
    w.once('exit', () => {
      if (worker === w) worker = null;
    });
    return w;
  }

  function discard(w: Worker) {
    if (worker === w) worker = null;
    void w.terminate();
  }

  /**
   * Resolves with the outcome, whatever the file does; rejects only when `signal` aborts. `onProgress` hears of
   * the pages read, then of each page read by OCR.
   */
  function extract(
    request: ExtractionRequest,
    { signal, onProgress }: { signal?: AbortSignal; onProgress?: (progress: FileProgress) => void } = {},
  ): Promise<ExtractionOutcome> {
    const w = (worker ??= spawn());
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: ExtractionOutcome | Error, keepWorker = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        w.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (!keepWorker) discard(w);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onMessage = (message: WorkerMessage) => {
        if ('outcome' in message) finish(message.outcome, true);
        else if (!settled) onProgress?.(message.progress);
      };
      const onError = (err: Error & { code?: string }) =>
        finish(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { ok: false, error: 'This file needs more memory to read than the server allows.' }
            : { ok: false, error: COULD_NOT_READ, detail: String(err) },
        );
      const onExit = () => finish({ ok: false, error: COULD_NOT_READ, detail: 'extraction worker exited' });
      const onAbort = () => finish(new ExtractionAborted('extraction stopped'));
      const timer = setTimeout(
        () =>
          finish({ ok: false, error: `Reading this file took longer than ${Math.round(limits.timeoutMs / 1000)} s.` }),
        limits.timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      w.on('message', onMessage).on('error', onError).on('exit', onExit);
      w.postMessage(request);
    });
  }

  return {
    extract,
    /** Starts the worker now, so the next file does not wait for its start (a quarter second here). */
    warm() {
      worker ??= spawn();
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

type Extractor = ReturnType<typeof createExtractor>;

/**
 * `size` extractors, each with its worker thread, so as many files are read at once; a call when all are busy
 * waits for the first one free. Workers start on first use (or `warm`) and idle ones do not keep the process alive.
 */
export function createExtractorPool(size: number, limits: ExtractionLimits) {
  const all = Array.from({ length: size }, () => createExtractor(limits));
  const idle = [...all];
  const waiting: ((extractor: Extractor) => void)[] = [];

  return {
    size,
    async extract(...args: Parameters<Extractor['extract']>): Promise<ExtractionOutcome> {
      const extractor = idle.pop() ?? (await new Promise<Extractor>((resolve) => waiting.push(resolve)));
      try {
        return await extractor.extract(...args);
      } finally {
        const next = waiting.shift();
        if (next) next(extractor);
        else idle.push(extractor);
      }
    },
    /** One worker started ahead of the first file; the others start when files come together. */
    warm() {
      all[0]?.warm();
    },
    async close() {
      await Promise.all(all.map((extractor) => extractor.close()));
    },
  };
}
