import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.base.ts';

// Unit and API integration tests: real SQLite files, the real PostgreSQL when TEST_DATABASE_URL is set.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
      testTimeout: 20_000,
      hookTimeout: 30_000,
      setupFiles: ['tests/support/fail-on-console-error.ts'],
    },
  }),
);
