import { afterEach, beforeEach, expect, vi } from 'vitest';

/**
 * An unexpected console.error is a bug somewhere; tests that expect one call `allowConsoleError()`.
 * The guard's state is the worker's, not this module's: a worker that keeps its modules between files
 * (`isolate: false`) runs this setup file afresh for each file while the file's own import of it may be an earlier
 * copy.
 */
const guard = ((globalThis as { consoleErrorGuard?: { allowed: boolean; calls: unknown[][] } }).consoleErrorGuard ??= {
  allowed: false,
  calls: [],
});

export function allowConsoleError() {
  guard.allowed = true;
}

beforeEach(() => {
  guard.allowed = false;
  guard.calls = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    guard.calls.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (!guard.allowed) expect(guard.calls, 'unexpected console.error').toEqual([]);
});
