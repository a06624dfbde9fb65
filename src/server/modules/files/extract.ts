import type { getDocumentProxy } from 'unpdf';
import type { FileProgress } from '@shared/contracts/files';
import { jsonDepth } from '../../lib/json-depth';
import type { OCR_LIMITS, OcrProgressListener, OcrResult } from './extract-ocr';
import { ExtractionError } from './extraction-error';
import type { DocumentFormat } from './file-formats';
import { pdftotextPages } from './pdftotext';
import { checkZipBounds, DOCX_BOUNDS } from './zip-bounds';

/** What a document holds, in the shape its citations need: pages, headed text, or a table's rows. */
export type ExtractedDocument = (
  | { kind: 'pages'; pages: string[] }
  /** `headings`: `#` lines start sections (Markdown, and HTML/DOCX as rendered by blockText). */
  | { kind: 'text'; text: string; headings: boolean }
  | { kind: 'table'; header: string[]; rows: string[][] }
) & {
  /** Something the owner should know about a file that was read (OCR, little text), shown with the file. */
  notice?: string;
};

export const EMPTY_FILE_MESSAGE = 'The file is empty';
export const NO_TEXT_MESSAGE = 'The file has no text to read';

const utf8 = new TextDecoder('utf-8');

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** How a PDF's text is read, and who hears of the pages read. */
export interface PdfReading {
  /** poppler's `pdftotext` command, tried first; null: pdf.js only. */
  pdftotext?: string | null;
  onProgress?: OcrProgressListener;
}

/** pdf.js, page after page, so that each page read is told (unpdf's extractText reads them all at once). */
async function pdfjsPages(pdf: PdfDocument, onPage: (done: number) => void): Promise<string[]> {
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    // As unpdf's extractText joins a page's items.
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    onPage(n);
  }
  return pages;
}

/**
 * Tells of a PDF's pages read once they are counted (by pdfinfo or pdf.js; pdftotext may be ahead by then), never
 * going back: pdf.js reading after a pdftotext that failed half-way starts again from page 1.
 */
function pageProgress(onProgress?: OcrProgressListener) {
  let total: number | null = null;
  let read = 0;
  let told: FileProgress | null = null;
  const tell = () => {
    if (total === null) return;
    // Never more pages read than counted: pdfinfo's count may be the one pdf.js corrects.
    const now = { stage: 'pages' as const, done: Math.min(read, total), total };
    if (told && now.done <= told.done && now.total === told.total) return;
    told = now;
    onProgress?.(now);
  };
  return {
    counted(pages: number) {
      total = pages;
      tell();
    },
    read(done: number) {
      read = Math.max(read, done);
      tell();
    },
  };
}

/** pdf.js, loaded only when a PDF needs it (poppler missing or failed, pages to OCR): it is most of the worker. */
async function openWithPdfjs(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocumentProxy } = await import('unpdf');
  try {
    // Verbosity 0: pdf.js would print its repair attempts on damaged files to the server's stdout.
    return await getDocumentProxy(bytes, { verbosity: 0 });
  } catch (err) {
    if ((err as Error | undefined)?.name === 'PasswordException') {
      throw new ExtractionError('This PDF is password-protected');
    }
    throw new ExtractionError('This PDF could not be read: it is damaged or incomplete.');
  }
}

/** Runs `read` on the PDF opened by pdf.js, closing it after; damage found while reading pages is the file's. */
async function withPdfjs<T>(bytes: Uint8Array, read: (pdf: PdfDocument) => Promise<T>): Promise<T> {
  const pdf = await openWithPdfjs(bytes);
  try {
    return await read(pdf);
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError('This PDF could not be read: some of its pages are damaged.');
  } finally {
    await pdf.destroy();
  }
}

const blankPages = (text: string[]) => text.flatMap((page, i) => (page.trim() === '' ? [i] : []));

/** The pages with text as they are, those without read by OCR from their pictures. */
async function withBlankPagesRead(pdf: PdfDocument, text: string[], reading: PdfReading): Promise<ExtractedDocument> {
  const blank = blankPages(text);
  if (blank.length === 0) return { kind: 'pages', pages: text };
  const { ocrPages, OCR_LIMITS } = await import('./extract-ocr');
  const ocr = await ocrPages(pdf, blank, OCR_LIMITS, reading.onProgress);
  const pages = text.map((page, i) => ocr.texts.get(i) ?? page);
  if (pages.every((page) => page.trim() === '')) throw new ExtractionError('This PDF has no text layer (scanned?)');
  return { kind: 'pages', pages, notice: ocrNotice(ocr, OCR_LIMITS) };
}

async function extractPdf(bytes: Uint8Array, reading: PdfReading): Promise<ExtractedDocument> {
  const progress = pageProgress(reading.onProgress);
  const poppler = reading.pdftotext
    ? await pdftotextPages(bytes, {
        command: reading.pdftotext,
        onCount: progress.counted,
        onPage: progress.read,
      }).catch(() => null)
    : null;
  // pdftotext's pages when pdfinfo's count agrees (a page it skipped would shift every later page number): pdf.js
  // then opens the file only for pages without text. Otherwise pdf.js counts them, and reads them too when
  // poppler is missing, failed or read another number of pages.
  const agreed = poppler && poppler.pages.length === poppler.pageCount ? poppler.pages : null;
  if (agreed && blankPages(agreed).length === 0) return { kind: 'pages', pages: agreed };
  return withPdfjs(bytes, async (pdf) => {
    progress.counted(pdf.numPages);
    const text =
      agreed ?? (poppler?.pages.length === pdf.numPages ? poppler.pages : await pdfjsPages(pdf, progress.read));
    return withBlankPagesRead(pdf, text, reading);
  });
}

const pagesOf = (n: number) => `${n} ${n === 1 ? 'page' : 'pages'}`;

const were = (n: number) => (n === 1 ? 'was' : 'were');

function ocrNotice({ texts, skipped, failed }: OcrResult, limits: typeof OCR_LIMITS): string | undefined {
  const read = texts.size;
  const notes = [];
  if (read > 0) notes.push(`${pagesOf(read)} had no text layer and ${were(read)} read by OCR.`);
  if (skipped > 0) {
    const { maxPages, budgetMs } = limits;
    notes.push(
      `${pagesOf(skipped)} without a text layer ${were(skipped)} not read (OCR stops after ${maxPages} pages or ${budgetMs / 1000} s).`,
    );
  }
  if (failed > 0) notes.push(`The pictures of ${pagesOf(failed)} could not be read by OCR.`);
  return notes.length > 0 ? notes.join(' ') : undefined;
}

/** Below one character of text in this many bytes, a file has lost most of its text (or is mostly markup). */
const SPARSE_RATIO = 25;

function sparseTextNotice(chars: number, bytes: number): string | undefined {
  if (bytes < 16 * 1024 || chars * SPARSE_RATIO >= bytes) return undefined;
  return `Only ${chars.toLocaleString('en')} characters of text were found in this ${Math.round(bytes / 1024)} KB file.`;
}

async function extractHtml(bytes: Uint8Array): Promise<ExtractedDocument> {
  const { htmlDocumentText } = await import('./html-document');
  const text = await htmlDocumentText(utf8.decode(bytes));
  return { kind: 'text', text, headings: true, notice: sparseTextNotice(text.length, bytes.length) };
}

async function extractDocx(bytes: Uint8Array): Promise<ExtractedDocument> {
  checkZipBounds(bytes, DOCX_BOUNDS, 'DOCX file');
  const [{ default: mammoth }, { htmlDocumentText }] = await Promise.all([
    import('mammoth'),
    import('./html-document'),
  ]);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch {
    throw new ExtractionError('This DOCX file could not be read: it is damaged or not a Word document.');
  }
  return { kind: 'text', text: await htmlDocumentText(html), headings: true };
}

async function extractCsv(text: string): Promise<ExtractedDocument> {
  const { parse: parseCsv } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parseCsv(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    throw new ExtractionError(`This CSV file could not be read: ${(err as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new ExtractionError(NO_TEXT_MESSAGE);
  return { kind: 'table', header, rows };
}

/**
 * Deeper than any document's data, well within what JSON.stringify can recurse through: 200,000 levels in a
 * 400 KB file overflow its stack, so such a file is kept as written.
 */
const PRETTY_JSON_MAX_DEPTH = 256;

/** JSON pretty-printed, so passages break between values; refused when it is not JSON at all. */
function readableJson(text: string): string {
  const value: unknown = JSON.parse(text);
  return jsonDepth(text) > PRETTY_JSON_MAX_DEPTH ? text : JSON.stringify(value, null, 2);
}

/**
 * Runs inside the extraction worker (extract.worker.ts), which bounds its time and memory. `reading.onProgress`
 * hears of a PDF's pages as their text is read, then of the pages read by OCR. The readers of DOCX, HTML, CSV
 * and OCR are imported when a document needs them: a worker starts (at the first file, and again after a
 * timeout) in the time its imports take, and mammoth and linkedom alone take most of a second.
 */
export async function extractDocument(
  bytes: Uint8Array,
  format: DocumentFormat,
  reading: PdfReading = {},
): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new ExtractionError(EMPTY_FILE_MESSAGE);
  switch (format) {
    case 'pdf':
      return extractPdf(bytes, reading);
    case 'docx':
      return extractDocx(bytes);
    case 'csv':
      return extractCsv(utf8.decode(bytes));
    case 'json':
      return { kind: 'text', text: readableJson(utf8.decode(bytes)), headings: false };
    case 'html':
      return extractHtml(bytes);
    case 'markdown':
      return { kind: 'text', text: utf8.decode(bytes), headings: true };
    case 'txt':
      return { kind: 'text', text: utf8.decode(bytes), headings: false };
  }
}
