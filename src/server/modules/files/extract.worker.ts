import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from './background-priority';
import { chunkDocument } from './chunk';
import { extractDocument, NO_TEXT_MESSAGE } from './extract';
import { ExtractionError } from './extraction-error';
import type { ExtractionOutcome, ExtractionRequest, WorkerMessage, WorkerSetup } from './extraction-worker';
import { warmPoppler } from './pdftotext';

const setup = workerData as WorkerSetup;
lowerThisThreadsPriority(setup.priority);
// After the priority, which the host and its programs inherit.
if (setup.warmPoppler) warmPoppler();

/**
 * Reads documents one by one, telling of the pages read and answering each with its chunks; the parent bounds this
 * thread's time and memory.
 */
parentPort!.on('message', async ({ bytes, format, pdftotext }: ExtractionRequest) => {
  let outcome: ExtractionOutcome;
  try {
    const document = await extractDocument(bytes, format, {
      pdftotext,
      onProgress: (progress) => parentPort!.postMessage({ progress } satisfies WorkerMessage),
    });
    const chunks = chunkDocument(document);
    outcome =
      chunks.length > 0 ? { ok: true, chunks, notice: document.notice ?? null } : { ok: false, error: NO_TEXT_MESSAGE };
  } catch (err) {
    outcome =
      err instanceof ExtractionError
        ? { ok: false, error: err.message }
        : { ok: false, error: 'This file could not be read.', detail: String(err) };
  }
  parentPort!.postMessage({ outcome } satisfies WorkerMessage);
});
