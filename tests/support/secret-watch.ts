import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { logSink } from './log-sink';
import type { TestApp } from './test-app';

/** A file's bytes as text; '' when it is not there (a write-ahead log after a checkpoint). */
function fileText(path: string) {
  try {
    return readFileSync(path).toString('latin1');
  } catch {
    return '';
  }
}

/**
 * Where a saved secret could show up: every answer the test read through `call` (or handed to `keep`), the
 * server's log (the `sink` the app writes to) and, on SQLite, the database file with its write-ahead log.
 */
export function secretWatch(app: () => TestApp, sink: ReturnType<typeof logSink>) {
  const answers: string[] = [];
  return {
    /** A request whose answer is kept, to be searched at the end. */
    async call(method: string, path: string, init: { token?: string; body?: unknown } = {}) {
      const res = await app().request(method, path, init);
      answers.push(JSON.stringify(res.body));
      return res;
    },
    keep(text: string) {
      answers.push(text);
    },
    /** None of `secrets` anywhere; the SQLite file does hold `saved`, so the search read the right bytes. */
    expectNowhere(secrets: string[], saved: string) {
      const { target } = app().testDb;
      const places = [answers.join('\n'), sink.lines.join('\n')];
      expect(sink.lines.length).toBeGreaterThan(0);
      if (target.kind === 'sqlite') {
        const bytes = fileText(target.path) + fileText(`${target.path}-wal`);
        expect(bytes).toContain(saved);
        places.push(bytes);
      }
      for (const place of places) for (const secret of secrets) expect(place).not.toContain(secret);
    },
  };
}
