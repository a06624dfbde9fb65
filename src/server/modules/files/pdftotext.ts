import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Bounds of one run: well within the extraction timeout, so pdf.js still has time when poppler gives up, and far
 * more text than a document within the upload limit holds (beyond it pdf.js, bounded by the worker's heap, tries).
 */
const PDFTOTEXT_LIMITS = { timeoutMs: 45_000, maxTextBytes: 64 * 1024 * 1024 };

/**
 * The text of each page of a PDF, read by poppler's `pdftotext` (`command`: its name on PATH or its path): several
 * times faster than pdf.js, in a process of its own. It ends every page with a form feed, so `onPage` hears of
 * each page as it is written, and the pages come out split in order (1-based page n is index n - 1). Rejects when
 * the command is missing, fails or overruns its bounds: the caller then reads the file with pdf.js.
 */
export async function pdftotextPages(
  bytes: Uint8Array,
  { command, onPage }: { command: string; onPage?: (done: number) => void },
  limits = PDFTOTEXT_LIMITS,
): Promise<string[]> {
  // A file, not stdin: poppler reads a PDF's cross-reference table from its end, which a pipe cannot seek to.
  const dir = await mkdtemp(join(tmpdir(), 'botty-pdf-'));
  try {
    const path = join(dir, 'document.pdf');
    await writeFile(path, bytes);
    const text = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        command,
        ['-q', '-enc', 'UTF-8', path, '-'],
        { encoding: 'utf8', timeout: limits.timeoutMs, maxBuffer: limits.maxTextBytes, killSignal: 'SIGKILL' },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      );
      let done = 0;
      // Decoded as UTF-8 already (`encoding`), where a form feed is never part of another character.
      child.stdout?.on('data', (chunk: string) => {
        const ended = chunk.split('\f').length - 1;
        if (ended === 0) return;
        done += ended;
        onPage?.(done);
      });
    });
    const pages = text.split('\f');
    // The last page's form feed leaves an empty tail.
    pages.pop();
    return pages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
