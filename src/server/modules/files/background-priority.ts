import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the server's own an extraction thread runs (a nice value: 0 is the server's, 19 the least).
 * Reading a file is background work: on a machine with few cores, its parsing and its `pdftotext` competed with the
 * chat's replies for the CPU, and a first token waited behind them (decision 0047).
 */
export const EXTRACTION_NICENESS = 10;

/**
 * FILES_EXTRACTION_PRIORITY. `idle`: the nice value and Linux's idle scheduling class, files read only on a core
 * nothing else wants. `low`: the nice value alone, so files keep a share of a machine whose cores stay busy, where
 * in the idle class they waited as long as the cores did (decision 0078).
 */
export const EXTRACTION_PRIORITIES = ['idle', 'low'] as const;
export type ExtractionPriority = (typeof EXTRACTION_PRIORITIES)[number];

/**
 * Lowers the priority of the calling thread only, and of the programs it starts from then on (they inherit it):
 * its nice value, and with `idle` its scheduling class to Linux's idle one (`SCHED_IDLE`, set by util-linux's `chrt`
 * on the thread's own id), in which it runs only on a core no other work wants and gives way at once to a thread
 * that wakes. A nice value alone still let a woken reply wait for the reading thread's turn to end: the chat's first
 * token while 50 PDFs were read, p50 ~8 → ~6 ms, p95 ~46 → ~34 ms (decision 0070).
 * Linux keeps both per thread (setpriority(2), "Bugs"; sched_setscheduler(2)), so the server's main thread keeps its
 * own; where a nice value is the whole process's (macOS, the BSDs), the server would slow down with it, so nothing
 * changes there.
 */
export function lowerThisThreadsPriority(
  priority: ExtractionPriority,
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform !== 'linux') return;
  try {
    setPriority(Math.max(getPriority(), EXTRACTION_NICENESS));
  } catch {
    // A sandbox that forbids it: the thread simply keeps the server's priority.
    return;
  }
  if (priority === 'low') return;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>": the id of this thread, not of the process.
    const threadId = readlinkSync('/proc/thread-self').split('/').at(-1)!;
    execFileSync('chrt', ['--idle', '--pid', '0', threadId], { stdio: 'ignore', timeout: 2_000 });
  } catch {
    // No chrt (util-linux) or not allowed: the nice value alone.
  }
}
