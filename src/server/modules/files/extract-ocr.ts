import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FileProgress } from '@shared/contracts/files';
import { createWorker, OEM, type Worker as OcrWorker } from 'tesseract.js';
import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** OCR is slow (about a second per page here): it is bounded in pages and time, within the extraction timeout. */
export const OCR_LIMITS = { maxPages: 30, budgetMs: 60_000 };

/** Smaller pictures are logos and rules, not scanned text. */
const MIN_SIDE = 64;

/**
 * English models from the @tesseract.js-data/eng package, read from disk: nothing is fetched at run time.
 * tesseract.js loads its Node worker script and its WebAssembly core from its own packages.
 */
const LANG_PATH = join(
  dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

interface PdfImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** A pdf.js decoded picture as a binary PGM (grey levels), a format Tesseract's image reader takes as it is. */
function toPgm(image: PdfImage, kinds: { GRAYSCALE_1BPP: number; RGB_24BPP: number }): Uint8Array | null {
  const { width, height, data } = image;
  if (!data || width < MIN_SIDE || height < MIN_SIDE) return null;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`);
  const grey = new Uint8Array(header.length + width * height);
  grey.set(header);
  const out = grey.subarray(header.length);
  if (image.kind === kinds.GRAYSCALE_1BPP) {
    // Rows are packed eight pixels to a byte, padded to whole bytes; a set bit is white.
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) out[y * width + x] = data[y * rowBytes + (x >> 3)]! & (128 >> (x & 7)) ? 255 : 0;
    return grey;
  }
  const channels = image.kind === kinds.RGB_24BPP ? 3 : 4;
  if (data.length < width * height * channels) return null;
  for (let i = 0; i < width * height; i++) {
    const p = i * channels;
    out[i] = (data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114) / 1000;
  }
  return grey;
}

/** The pictures a page paints: a scanned page is one (or a few strips) of them. */
async function pageImages(pdf: PdfDocument, pageNumber: number): Promise<Uint8Array[]> {
  const { OPS, ImageKind } = await getResolvedPDFJS();
  const page = await pdf.getPage(pageNumber);
  const { fnArray, argsArray } = await page.getOperatorList();
  const images: Uint8Array[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    if (fnArray[i] !== OPS.paintImageXObject) continue;
    const key = (argsArray[i] as [string])[0];
    const objs = key.startsWith('g_') ? page.commonObjs : page.objs;
    const image = await new Promise<PdfImage | null>((resolve) => objs.get(key, resolve));
    const pgm = image && toPgm(image, ImageKind);
    if (pgm) images.push(pgm);
  }
  return images;
}

export interface OcrResult {
  /** Text by page index, for the pages that were read. */
  texts: Map<number, string>;
  /** Pages without a text layer left unread: over the page cap or the time budget. */
  skipped: number;
  /** Pages whose pictures pdf.js or Tesseract could not read; the rest of the file is still used. */
  failed: number;
}

/** Told before the first page and after each page: `done` of the `total` pages given have been dealt with. */
export type OcrProgressListener = (progress: FileProgress) => void;

/**
 * Reads the pages at `pageIndexes` (0-based, pages with no text layer) by OCR, in order, within `limits`: only
 * pages with pictures count towards the page cap, so blank pages cost nothing.
 */
export async function ocrPages(
  pdf: PdfDocument,
  pageIndexes: number[],
  limits = OCR_LIMITS,
  onProgress?: OcrProgressListener,
): Promise<OcrResult> {
  const started = Date.now();
  const result: OcrResult = { texts: new Map(), skipped: 0, failed: 0 };
  const total = pageIndexes.length;
  let worker: OcrWorker | null = null;
  let pictured = 0;
  onProgress?.({ stage: 'ocr', done: 0, total });
  try {
    for (const [i, index] of pageIndexes.entries()) {
      if (i > 0) onProgress?.({ stage: 'ocr', done: i, total });
      if (pictured >= limits.maxPages || Date.now() - started > limits.budgetMs) {
        result.skipped++;
        continue;
      }
      try {
        const images = await pageImages(pdf, index + 1);
        if (images.length === 0) continue;
        pictured++;
        worker ??= await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
        const parts: string[] = [];
        for (const image of images) parts.push((await worker.recognize(Buffer.from(image))).data.text.trim());
        const text = parts.filter(Boolean).join('\n\n');
        if (text) result.texts.set(index, text);
      } catch {
        result.failed++;
      }
    }
  } finally {
    await worker?.terminate();
  }
  onProgress?.({ stage: 'ocr', done: total, total });
  return result;
}
