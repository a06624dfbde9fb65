import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// End-to-end specs: the built client served by the real server, driven by the system Chromium.
export default defineConfig({
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@': dir('./src/client'),
    },
  },
  test: {
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
