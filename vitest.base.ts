import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** What the unit/API and the end-to-end runs share: the import aliases of tsconfig.json, Node as environment. */
export default defineConfig({
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@': dir('./src/client'),
    },
  },
  test: {
    environment: 'node',
  },
});
