import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createProgramHost } from '../../lib/program-host';

/**
 * Bounds of one run: well within the extraction timeout, so pdf.js still has time when poppler gives up, and far
 * more text than a document within the upload limit holds (beyond it pdf.js, bounded by the worker's heap, tries).
 */
const PDFTOTEXT_LIMITS = { timeoutMs: 45_000, maxTextBytes: 64 * 1024 * 1024 };

/** What poppler read of a PDF: the text of each page, and the page count `pdfinfo` gave (null when it could not). */
interface PopplerText {
  pages: string[];
  pageCount: number | null;
}

/**
 * poppler's `pdfinfo`, installed beside `pdftotext` (the same Debian package): on the same path when the command
 * was given as one, found on PATH otherwise.
 */
const pdfinfoBeside = (pdftotext: string) =>
  basename(pdftotext) === pdftotext ? 'pdfinfo' : join(dirname(pdftotext), 'pdfinfo');

/**
 * poppler's programs are started from a host process of this thread's (program-host.ts): two a PDF, straight from
 * the server, each stalled all its threads while Linux copied its memory map.
 */
const programs = createProgramHost();

/** Starts poppler's host ahead of the first PDF, from a thread whose priority is already lowered. */
export const warmPoppler = () => programs.warm();

const run = (command: string, args: string[], limits: typeof PDFTOTEXT_LIMITS, onOutput?: (chunk: string) => void) =>
  programs.run(command, args, { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxTextBytes }, onOutput);

/** The page count `pdfinfo` prints, or null when it is missing, fails or prints none. */
async function pdfinfoPages(command: string, path: string, limits: typeof PDFTOTEXT_LIMITS) {
  try {
    const count = /^Pages:\s+(\d+)\s*$/m.exec(await run(command, [path], limits))?.[1];
    return count === undefined ? null : Number(count);
  } catch {
    return null;
  }
}

/**
 * The text of each page of a PDF, read by poppler's `pdftotext` (`command`: its name on PATH or its path): several
 * times faster than pdf.js, in a process of its own; meanwhile `pdfinfo` counts the pages (`onCount`), so the
 * document need not be opened by pdf.js at all. pdftotext ends every page with a form feed, so `onPage` hears of
 * each page as it is written, and the pages come out split in order (1-based page n is index n - 1). Rejects when
 * pdftotext is missing, fails or overruns its bounds: the caller then reads the file with pdf.js.
 */
export async function pdftotextPages(
  bytes: Uint8Array,
  { command, onCount, onPage }: { command: string; onCount?: (pages: number) => void; onPage?: (done: number) => void },
  limits = PDFTOTEXT_LIMITS,
): Promise<PopplerText> {
  // A file, not stdin: poppler reads a PDF's cross-reference table from its end, which a pipe cannot seek to.
  const dir = await mkdtemp(join(tmpdir(), 'botty-pdf-'));
  try {
    const path = join(dir, 'document.pdf');
    await writeFile(path, bytes);
    const counting = pdfinfoPages(pdfinfoBeside(command), path, limits).then((count) => {
      if (count !== null) onCount?.(count);
      return count;
    });
    let done = 0;
    // Decoded as UTF-8 already (`encoding`), where a form feed is never part of another character.
    const reading = run(command, ['-q', '-enc', 'UTF-8', path, '-'], limits, (chunk) => {
      const ended = chunk.split('\f').length - 1;
      if (ended === 0) return;
      done += ended;
      onPage?.(done);
    });
    // pdfinfo awaited even when pdftotext fails: a count told after pdf.js has taken over would undo pdf.js's own.
    const [text, pageCount] = await Promise.allSettled([reading, counting]);
    if (text.status === 'rejected') throw text.reason;
    const pages = text.value.split('\f');
    // The last page's form feed leaves an empty tail.
    pages.pop();
    return { pages, pageCount: pageCount.status === 'fulfilled' ? pageCount.value : null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
