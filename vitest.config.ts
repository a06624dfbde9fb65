import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Unit and API integration tests: real SQLite files, the real PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@': dir('./src/client'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ['tests/support/fail-on-console-error.ts'],
  },
});
