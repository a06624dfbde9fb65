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
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
