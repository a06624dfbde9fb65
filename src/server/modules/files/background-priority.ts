import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the server's own an extraction thread runs (a nice value: 0 is the server's, 19 the least).
 * Reading a file is background work: on a machine with few cores, its parsing and its `pdftotext` competed with the
 * chat's replies for the CPU, and a first token waited behind them (decision 0047).
 */
export const EXTRACTION_NICENESS = 10;

/**
 * Lowers the priority of the calling thread only, and of the programs it starts from then on (they inherit it).
 * Linux keeps a nice value per thread (setpriority(2), "Bugs"), so the server's main thread keeps its own; where a
 * nice value is the whole process's (macOS, the BSDs), the server would slow down with it, so nothing changes there.
 * Answers the thread's nice value afterwards, or null when it was left as it was.
 */
export function lowerThisThreadsPriority(platform: NodeJS.Platform = process.platform): number | null {
  if (platform !== 'linux') return null;
  try {
    setPriority(Math.max(getPriority(), EXTRACTION_NICENESS));
    return getPriority();
  } catch {
    // A sandbox that forbids it: the thread simply keeps the server's priority.
    return null;
  }
}
