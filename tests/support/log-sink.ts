import { Writable } from 'node:stream';

export interface LogEntry {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

/** A stream for pino (or the app's `logStream`) that keeps every JSON log line for the test to read. */
export function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, entries: () => lines.map((line) => JSON.parse(line) as LogEntry) };
}
