import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) of this machine's PostgreSQL processes so far, from Linux's /proc/{pid}/schedstat (nanoseconds,
 * where /proc/{pid}/stat counts 10 ms ticks, too coarse for a load's few hundred milliseconds); null where there
 * is no /proc. Only meaningful when the benchmarked PostgreSQL runs here and does nothing else meanwhile.
 */
export function postgresCpuMicros(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let nanos = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      nanos += Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return nanos / 1000;
}
