import { afterEach, beforeEach, expect, vi } from 'vitest';

/** An unexpected console.error is a bug somewhere; tests that expect one call `allowConsoleError()`. */
let allowed = false;
let calls: unknown[][] = [];

export function allowConsoleError() {
  allowed = true;
}

beforeEach(() => {
  allowed = false;
  calls = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    calls.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (!allowed) expect(calls, 'unexpected console.error').toEqual([]);
});
