import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { FileProgress } from '@shared/contracts/files';
import type { Db } from '../../db/database';
import { hasRoundTrips } from '../../db/write-atomically';
import type { Clock } from '../../lib/clock';
import type { InstanceNotices } from '../../lib/instance-notices';
import type { Chunk } from './chunk';
import { vectorToBytes, type Embeddings } from './embeddings';
import {
  createExtractorPool,
  DEFAULT_EXTRACTION_LIMITS,
  ExtractionAborted,
  type ExtractionLimits,
  type ExtractionOutcome,
} from './extraction-worker';
import { documentFormatOf } from './file-formats';
import {
  claimNextFile,
  finishFile,
  replaceChunks,
  findBlobDeletions,
  forgetBlobDeletion,
  releaseFile,
  setFileProgress,
  type FileRow,
  type EmbeddedChunk,
} from './files.repository';
import { writesPgvector } from './pgvector-index';
import type { VectorModel } from './vector-index.repository';
import { MissingBlobError, type FileStorage } from './storage';
import { jobLoop } from '../../lib/job-loop';

export interface FileJobsOptions extends ExtractionLimits {
  /** How often an idle runner looks for work another instance queued, and for bytes to remove. */
  pollMs: number;
  /** A file whose job failed unexpectedly this many times is given up as failed. */
  maxAttempts: number;
  /** Files read at once, each in a worker thread of its own (FILES_EXTRACTION_WORKERS). */
  workers: number;
  /** poppler's `pdftotext` command, tried first for PDFs (FILES_PDFTOTEXT); null: pdf.js only. */
  pdftotext: string | null;
  /**
   * Start one extraction worker with the runner rather than with the first file, which then does not wait for it:
   * the server does; embedded apps (tests) leave it off, as most never read a file.
   */
  warmWorker: boolean;
}

/**
 * Progress is written at most this often (and at each new stage): the list polls every 1.5 s, and pages of text
 * take milliseconds each, pages read by OCR about a second.
 */
const PROGRESS_WRITE_MS = 250;

export const DEFAULT_FILE_JOBS: FileJobsOptions = {
  ...DEFAULT_EXTRACTION_LIMITS,
  pollMs: 2_000,
  maxAttempts: 3,
  workers: 1,
  pdftotext: null,
  warmWorker: false,
};

export interface FileJobsDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  embeddings: Embeddings | null;
  log: FastifyBaseLogger;
  /** Wakes the runners of every instance, this one's included (decision 0051). */
  notices: InstanceNotices;
}

const GAVE_UP_MESSAGE = 'This file could not be processed. Try uploading it again.';

/**
 * A file's passages written this many statements at a time on PostgreSQL, two backends computing their search
 * vectors side by side (decision 0069); the pool's other connections stay free for requests.
 */
const CHUNK_STATEMENTS_AT_ONCE = 2;

/**
 * Reads uploaded documents off the request path, `workers` at a time: claims the oldest files still `processing`
 * (leased, so a file whose runner died is taken up again once the lease passes — at the next start, or by
 * another instance), extracts and chunks each in a bounded worker thread of the pool, embeds the chunks when a
 * model is configured, and stores the outcome. Between passes it removes the bytes of deleted files.
 */
export function createFileJobs(deps: FileJobsDeps, options: FileJobsOptions = DEFAULT_FILE_JOBS) {
  const { db, clock, storage, log } = deps;
  // Long enough that a job finishing within its timeout never loses its lease to another instance.
  const leaseMs = options.timeoutMs * 2 + 60_000;
  const extractors = createExtractorPool(options.workers, options);

  async function removeDeletedBlobs() {
    for (const { storage_key: key } of await findBlobDeletions(db.kysely, 100)) {
      try {
        await storage.delete(key);
        await forgetBlobDeletion(db.kysely, key);
      } catch (err) {
        log.warn({ err, key }, 'could not remove the bytes of a deleted file; will retry');
        return;
      }
    }
  }

  /** The chunks with their vectors, and the model that wrote them (null: none, or it failed). */
  async function embedChunks(chunks: Chunk[]): Promise<{ chunks: EmbeddedChunk[]; model: VectorModel | null }> {
    try {
      const model = await deps.embeddings?.current();
      if (!model) return { chunks, model: null };
      const vectors = await model.embedPassages(chunks.map((c) => c.text));
      const embedded = chunks.map((c, i) => ({
        ...c,
        embedding: vectorToBytes(vectors[i]!),
        embeddingModel: model.id,
      }));
      return { chunks: embedded, model };
    } catch (err) {
      // Full-text search still finds these passages; only the semantic half of retrieval misses them.
      log.warn({ err }, 'embedding a file failed; it is indexed for full-text search only');
      return { chunks, model: null };
    }
  }

  /** Whether the file's passages are written for pgvector's index too: a knowledge file of a bot it ranks. */
  const forPgvector = (file: FileRow, model: VectorModel | null) =>
    model !== null && file.bot_id !== null && file.conversation_id === null
      ? writesPgvector(db, { ownerId: file.user_id, botId: file.bot_id }, model)
      : false;

  /**
   * Stores a job's progress as the worker reports it: at most one write in `PROGRESS_WRITE_MS` unless the stage
   * changed, one at a time (reports in between are dropped, a newer one comes soon), and `settled` waits for the
   * last write, so none lands after the file's outcome.
   */
  function progressWriter(job: { id: number; leaseUntil: string }) {
    let lastWrite = -Infinity;
    let lastStage: FileProgress['stage'] | null = null;
    let writing: Promise<unknown> = Promise.resolve();
    return {
      report(progress: FileProgress) {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_WRITE_MS && progress.stage === lastStage) return;
        lastWrite = now;
        lastStage = progress.stage;
        writing = writing
          .then(() => setFileProgress(db.kysely, job, progress))
          .catch((err: unknown) => log.warn({ err, fileId: job.id }, 'could not store a file’s progress'));
      },
      settled: () => writing,
    };
  }

  async function extract(file: FileRow, onProgress: (progress: FileProgress) => void): Promise<ExtractionOutcome> {
    const format = documentFormatOf(file.media_type);
    if (!format) return { ok: false, error: 'This file type cannot be read.' };
    let bytes: Uint8Array;
    try {
      bytes = await buffer(await storage.get(file.storage_key));
    } catch (err) {
      if (err instanceof MissingBlobError) return { ok: false, error: 'The stored file is missing. Upload it again.' };
      throw err;
    }
    return extractors.extract({ bytes, format, pdftotext: options.pdftotext }, { signal: jobs.signal, onProgress });
  }

  /** Reads, indexes and stores one file; `read` is called once, when its worker is free for the next file. */
  async function process(file: FileRow, leaseUntil: string, read: () => void) {
    const job = { id: file.id, leaseUntil };
    const started = Date.now();
    const progress = progressWriter(job);
    try {
      const outcome = await extract(file, progress.report).finally(() => {
        read();
        return progress.settled();
      });
      if (!outcome.ok && outcome.detail) log.warn({ fileId: file.id, detail: outcome.detail }, 'extraction failed');
      const { chunks, model } = outcome.ok ? await embedChunks(outcome.chunks) : { chunks: [], model: null };
      if (outcome.ok) {
        const atOnce = hasRoundTrips(db) ? CHUNK_STATEMENTS_AT_ONCE : 1;
        await replaceChunks(db.kysely, file.id, chunks, { atOnce, pgvector: await forPgvector(file, model) });
      }
      const result = outcome.ok
        ? { status: 'ready' as const, error: outcome.notice, chunkCount: chunks.length }
        : { status: 'failed' as const, error: outcome.error, chunkCount: 0 };
      await finishFile(db.kysely, job, result, clock.now().toISOString());
      log.info(
        { fileId: file.id, status: result.status, chunks: result.chunkCount, ms: Date.now() - started },
        'file processed',
      );
    } catch (err) {
      if (err instanceof ExtractionAborted) {
        await releaseFile(db.kysely, file.id);
        return;
      }
      log.error({ err, fileId: file.id }, 'file job failed');
      if (file.attempts >= options.maxAttempts) {
        const gaveUp = { status: 'failed' as const, error: GAVE_UP_MESSAGE, chunkCount: 0 };
        await finishFile(db.kysely, job, gaveUp, clock.now().toISOString()).catch(() => {});
      } else {
        await releaseFile(db.kysely, file.id).catch(() => {});
      }
    }
  }

  /** Cuts short a pass's wait for a job to end, so a new upload is claimed while a worker is free. */
  let claimable: () => void = () => {};

  /**
   * One pass: bytes to remove, then every claimable file, as many read at once as there are workers. A file whose
   * text is read is stored (its passages embedded and indexed, the database's part) while its worker reads the
   * next one, so the two overlap. No more than twice as many files as workers are in hand, so a slow database holds
   * back the reading rather than piling up read files.
   */
  async function drain() {
    await removeDeletedBlobs();
    const inHand = new Set<Promise<void>>();
    let reading = 0;
    let more = true;
    while (jobs.running && (more || inHand.size > 0)) {
      while (more && jobs.running && reading < extractors.size && inHand.size < 2 * extractors.size) {
        const now = clock.now();
        const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
        const file = await claimNextFile(db, now.toISOString(), leaseUntil);
        if (!file) more = false;
        else {
          reading += 1;
          let wasRead = false;
          const read = () => {
            if (wasRead) return;
            wasRead = true;
            reading -= 1;
            claimable();
          };
          const job: Promise<void> = process(file, leaseUntil, read).finally(() => {
            read();
            inHand.delete(job);
          });
          inHand.add(job);
        }
      }
      if (inHand.size === 0) break;
      await Promise.race([...inHand, new Promise<void>((resolve) => (claimable = resolve))]);
      // A worker is free, or a file was queued: look again.
      more = true;
    }
    // Stopping: the files in hand give themselves back (or finish) before the pass ends.
    await Promise.all(inHand);
  }

  const jobs = jobLoop({ pollMs: options.pollMs, log, what: 'file job runner', pass: drain });
  let stopListening = () => {};

  return {
    /** Picks up files left processing by an earlier run, then waits for work. */
    start() {
      if (!jobs.start()) return;
      if (options.warmWorker) extractors.warm();
      stopListening = deps.notices.on('files-queued', () => {
        claimable();
        jobs.wake();
      });
    },
    /**
     * Work is waiting (a new upload, a deleted file): every instance's runner looks now rather than at its next
     * poll or job's end, so a runner with a worker free takes it even when this one's are busy or not running.
     */
    wake() {
      void deps.notices.tell('files-queued');
    },
    /** Stops after releasing the files in hand, so the next start (or another instance) takes them up at once. */
    async stop() {
      stopListening();
      await jobs.stop();
      await extractors.close();
    },
  };
}

export type FileJobs = ReturnType<typeof createFileJobs>;
