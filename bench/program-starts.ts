/**
 * What starting poppler costs the server's other threads (decision 0072). A process holding SERVER_MB of memory,
 * as a server reading files does, has a worker thread read PDFS small PDFs as the extraction worker does (`pdfinfo`
 * and `pdftotext` on each, side by side), one way started straight from the thread (Node's execFile: the
 * baseline, what the worker did before), the other through the program host (src/server/lib/program-host.ts).
 * Meanwhile the main thread asks for a 2 ms timer over and over, and how late each one fires is what a request
 * being answered would have waited. Linux copies a process's page tables on every start of a program, holding
 * its memory map meanwhile, so the baseline grows with the server's memory. Printed per way: the time per PDF and
 * the timer's lateness (p50/p95/p99/max), each size's ways run in alternation, ROUNDS each.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { tsxUrl } from '../src/server/lib/beside-this-build';
import { createProgramHost } from '../src/server/lib/program-host';
import { pdfWithPages } from '../tests/support/files';

const SERVER_MB = [300, 1_000];
const PDFS = 50;
const ROUNDS = 2;
const WAYS = ['execFile', 'host'] as const;
type Way = (typeof WAYS)[number];

interface Job {
  way: Way;
  pdf: string;
}

async function readInWorker({ way, pdf }: Job) {
  const host = createProgramHost();
  const direct = promisify(execFile);
  const limits = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 * 1024 };
  const run = (command: string, args: string[]) =>
    way === 'host' ? host.run(command, args, limits) : direct(command, args, { encoding: 'utf8' });
  // The host is started before the timing, as a worker's is after its first file.
  await run('true', []);
  parentPort!.postMessage('ready');
  const start = performance.now();
  for (let i = 0; i < PDFS; i++) await Promise.all([run('pdfinfo', [pdf]), run('pdftotext', ['-q', pdf, '-'])]);
  parentPort!.postMessage(performance.now() - start);
  host.close();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function round(job: Job) {
  const entry = JSON.stringify(import.meta.url);
  const worker = new Worker(
    `import(${JSON.stringify(tsxUrl('./esm/api'))}).then((tsx) => { tsx.register(); return import(${entry}); })`,
    { eval: true, workerData: job },
  );
  const next = () => new Promise<unknown>((resolve) => worker.once('message', resolve));
  await next();
  const late: number[] = [];
  let timing = true;
  const tick = () => {
    const asked = performance.now();
    setTimeout(() => {
      late.push(performance.now() - asked - 2);
      if (timing) tick();
    }, 2);
  };
  tick();
  const spent = (await next()) as number;
  timing = false;
  await worker.terminate();
  return { perPdf: spent / PDFS, late };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'botty-program-starts-'));
  const pdf = join(dir, 'document.pdf');
  writeFileSync(pdf, await pdfWithPages(Array.from({ length: 12 }, (_, i) => `Page ${i + 1}. `.repeat(200))));
  const ballast: Buffer[] = [];
  try {
    for (const mb of SERVER_MB) {
      // Touched, so that it is resident: what the page tables map is what a start copies.
      while (ballast.length < mb) ballast.push(Buffer.alloc(1024 * 1024, ballast.length));
      const results = new Map<Way, { perPdf: number[]; late: number[] }>(
        WAYS.map((way) => [way, { perPdf: [], late: [] }]),
      );
      for (let r = 0; r < ROUNDS; r++)
        for (const way of WAYS) {
          const { perPdf, late } = await round({ way, pdf });
          results.get(way)!.perPdf.push(perPdf);
          results.get(way)!.late.push(...late);
        }
      const rss = process.memoryUsage().rss / 2 ** 20;
      console.log(`a process of ${rss.toFixed(0)} MiB, ${PDFS} PDFs of 12 pages per round, ${ROUNDS} rounds a way:`);
      for (const [way, { perPdf, late }] of results) {
        const sorted = late.sort((a, b) => a - b);
        const q = (p: number) => percentile(sorted, p).toFixed(1);
        const label = way === 'host' ? 'through the program host' : 'execFile from the thread (baseline)';
        console.log(
          `  ${label.padEnd(36)} ${perPdf.map((t) => t.toFixed(1)).join(' / ')} ms a PDF; main thread's timer late ` +
            `p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)} max ${sorted.at(-1)!.toFixed(1)} ms`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await readInWorker(workerData as Job);
