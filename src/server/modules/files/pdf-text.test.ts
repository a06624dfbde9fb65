import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileProgress } from '@shared/contracts/files';
import { encryptedPdf, pdfWithPages, scannedPdf } from '../../../../tests/support/files';
import { EXTRACTION_NICENESS } from './background-priority';
import { createExtractor, DEFAULT_EXTRACTION_LIMITS, type ExtractionOutcome } from './extraction-worker';

/**
 * Issue 26: a PDF's text is read by poppler's `pdftotext` when it is installed (scripts/ensure-system-packages.sh
 * installs it), by pdf.js when it is not or fails; either way page by page, with the same page numbers, and each
 * page read is told. The commands below are real programs: pdftotext itself behind a script that leaves a mark
 * (so the test knows which way the file was read), and scripts that are missing or fail.
 */
const PDFTOTEXT = execFileSync('sh', ['-c', 'command -v pdftotext'], { encoding: 'utf8' }).trim();

const dir = mkdtempSync(join(tmpdir(), 'botty-pdftotext-'));
const extractor = createExtractor(DEFAULT_EXTRACTION_LIMITS);
afterAll(async () => {
  await extractor.close();
  rmSync(dir, { recursive: true, force: true });
});

let scripts = 0;
function script(body: string): string {
  const path = join(dir, `pdftotext-${(scripts += 1)}.sh`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** pdftotext itself, leaving `marker` behind when it runs, with the id of the process that started it. */
function markedPdftotext(marker: string): string {
  return script(`echo $PPID > '${marker}'\nexec '${PDFTOTEXT}' "$@"`);
}

async function read(bytes: Uint8Array, pdftotext: string | null) {
  const progress: FileProgress[] = [];
  const outcome = await extractor.extract({ bytes, format: 'pdf', pdftotext }, { onProgress: (p) => progress.push(p) });
  return { outcome, progress };
}

const pagesOf = (outcome: ExtractionOutcome) => {
  if (!outcome.ok) throw new Error(`extraction failed: ${outcome.error} ${outcome.detail ?? ''}`);
  return outcome.chunks.map((c) => [c.page, c.text]);
};

const PAGES = ['Alpha page', 'Beta page', 'Gamma page'];
const EXPECTED = PAGES.map((text, i) => [i + 1, text]);

describe('PDF text', () => {
  it('is read by pdftotext when it is installed, page by page with 1-based page numbers, each page told', async () => {
    const marker = join(dir, 'ran');
    const { outcome, progress } = await read(await pdfWithPages(PAGES), markedPdftotext(marker));
    expect(existsSync(marker)).toBe(true);
    // Started by the program host, a process of its own, not by the server's (decision 0072).
    expect(Number(readFileSync(marker, 'utf8'))).not.toBe(process.pid);
    expect(pagesOf(outcome)).toEqual(EXPECTED);
    // Told once the pages are counted (here by pdf.js: no pdfinfo beside this script), never going back.
    expect(progress.every((p) => p.stage === 'pages' && p.total === 3)).toBe(true);
    expect(progress.map((p) => p.done).every((done, i, all) => i === 0 || done > all[i - 1]!)).toBe(true);
    expect(progress.at(-1)).toEqual({ stage: 'pages', done: 3, total: 3 });
  });

  it('is counted by pdfinfo beside pdftotext, and read by pdf.js when the two disagree', async () => {
    const PDFINFO = execFileSync('sh', ['-c', 'command -v pdfinfo'], { encoding: 'utf8' }).trim();
    const poppler = (name: string, pdfinfo: string) => {
      const bin = join(dir, name);
      mkdirSync(bin);
      writeFileSync(join(bin, 'pdftotext'), `#!/bin/sh\nexec '${PDFTOTEXT}' "$@"\n`, { mode: 0o755 });
      writeFileSync(join(bin, 'pdfinfo'), `#!/bin/sh\ntouch '${join(bin, 'counted')}'\n${pdfinfo}\n`, { mode: 0o755 });
      return bin;
    };
    const pdf = await pdfWithPages(PAGES);
    const agrees = poppler('agrees', `exec '${PDFINFO}' "$@"`);
    const counted = await read(pdf, join(agrees, 'pdftotext'));
    expect(existsSync(join(agrees, 'counted'))).toBe(true);
    expect(pagesOf(counted.outcome)).toEqual(EXPECTED);
    expect(counted.progress.every((p) => p.stage === 'pages' && p.total === 3)).toBe(true);
    expect(counted.progress.at(-1)).toEqual({ stage: 'pages', done: 3, total: 3 });

    // pdftotext's three pages against a count of four: which page is missing is unknown, so pdf.js reads them.
    const disagrees = poppler('disagrees', "echo 'Pages:          4'");
    const recounted = await read(pdf, join(disagrees, 'pdftotext'));
    expect(existsSync(join(disagrees, 'counted'))).toBe(true);
    expect(pagesOf(recounted.outcome)).toEqual(EXPECTED);
    expect(recounted.progress.at(-1)).toEqual({ stage: 'pages', done: 3, total: 3 });
  });

  it('is read by pdf.js, with the same pages and progress, when pdftotext is missing, fails or is off', async () => {
    const pdf = await pdfWithPages(PAGES);
    for (const command of [join(dir, 'missing', 'pdftotext'), script('exit 1'), script('echo half; exit 0'), null]) {
      const { outcome, progress } = await read(pdf, command);
      expect(pagesOf(outcome)).toEqual(EXPECTED);
      expect(progress.map((p) => p.done)).toEqual([0, 1, 2, 3]);
      expect(progress.every((p) => p.stage === 'pages' && p.total === 3)).toBe(true);
    }
  });

  it('reads pages without a text layer by OCR after pdftotext read the others', async () => {
    const marker = join(dir, 'ran-for-scan');
    const scan = await scannedPdf(['A SCANNED PAGE.']);
    const { outcome, progress } = await read(scan, markedPdftotext(marker));
    expect(existsSync(marker)).toBe(true);
    expect(outcome).toMatchObject({ ok: true, notice: '1 page had no text layer and was read by OCR.' });
    const firstOcr = progress.findIndex((p) => p.stage === 'ocr');
    expect(progress.slice(0, firstOcr).every((p) => p.stage === 'pages')).toBe(true);
    expect(progress[firstOcr - 1]).toEqual({ stage: 'pages', done: 1, total: 1 });
    expect(progress.slice(firstOcr).map((p) => [p.stage, p.done])).toEqual([
      ['ocr', 0],
      ['ocr', 1],
    ]);
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'is read at a lower priority than the server’s, in the idle scheduling class, the server keeping its own (decisions 0047, 0070)',
    async () => {
      const niceness = join(dir, 'niceness');
      const policy = join(dir, 'policy');
      const { outcome } = await read(
        await pdfWithPages(PAGES),
        script(`nice > '${niceness}'\nchrt --pid $$ > '${policy}'\nexec '${PDFTOTEXT}' "$@"`),
      );
      expect(pagesOf(outcome)).toEqual(EXPECTED);
      expect(Number(readFileSync(niceness, 'utf8'))).toBe(EXTRACTION_NICENESS);
      expect(readFileSync(policy, 'utf8')).toMatch(/scheduling policy: SCHED_IDLE$/m);
      expect(getPriority()).toBe(0);
      expect(execFileSync('chrt', ['--pid', String(process.pid)], { encoding: 'utf8' })).toMatch(
        /scheduling policy: SCHED_OTHER$/m,
      );
    },
  );

  it.runIf(process.platform === 'linux')(
    'has poppler’s host started with the worker when PDFs are read with pdftotext, and ended with it',
    async () => {
      const hosts = () =>
        readdirSync(`/proc/${process.pid}/task`)
          .flatMap((task) => readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' '))
          .filter((pid) => pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('program-host'));
      const before = hosts();
      const warmed = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, pdftotext: PDFTOTEXT });
      warmed.warm();
      await expect.poll(() => hosts().length, { timeout: 10_000 }).toBe(before.length + 1);
      await warmed.close();
      await expect.poll(() => hosts().length, { timeout: 10_000 }).toBe(before.length);
    },
  );

  it('still says a password-protected PDF is one', async () => {
    const { outcome } = await read(await encryptedPdf(), PDFTOTEXT);
    expect(outcome).toEqual({ ok: false, error: 'This PDF is password-protected' });
  });

  it.runIf(process.platform === 'linux')(
    'is read at the lower nice value alone, in the normal scheduling class, with FILES_EXTRACTION_PRIORITY=low (decision 0078)',
    async () => {
      const niceness = join(dir, 'niceness-low');
      const policy = join(dir, 'policy-low');
      // Last: its worker's poppler host ends after the worker, which the count of hosts above would see.
      const low = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, priority: 'low' });
      try {
        const outcome = await low.extract({
          bytes: await pdfWithPages(PAGES),
          format: 'pdf',
          pdftotext: script(`nice > '${niceness}'\nchrt --pid $$ > '${policy}'\nexec '${PDFTOTEXT}' "$@"`),
        });
        expect(pagesOf(outcome)).toEqual(EXPECTED);
        expect(Number(readFileSync(niceness, 'utf8'))).toBe(EXTRACTION_NICENESS);
        expect(readFileSync(policy, 'utf8')).toMatch(/scheduling policy: SCHED_OTHER$/m);
      } finally {
        await low.close();
      }
    },
  );
});
