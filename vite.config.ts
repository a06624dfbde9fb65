import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: dir('./src/client'),
  publicDir: dir('./src/client/public'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@': dir('./src/client'),
    },
  },
  build: {
    outDir: dir('./dist/client'),
    emptyOutDir: true,
    // scripts/check-bundle.ts reads it to measure what the first page loads.
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry loads up front goes in one chunk: left alone, Rolldown splits the modules the entry
          // shares with lazy pages (react, tailwind-merge, the request helpers…) into small chunks, and each
          // compresses on its own (about 3 KB gzip more on the first page).
          groups: [{ name: 'first-page', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
