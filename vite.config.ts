import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const alias = { '@shared': dir('./src/shared'), '@': dir('./src/client') };

/**
 * The embeddable widget (src/embed, decision 0018): its loader and its page's script, each built on its own as
 * one classic script with no imports, next to the client but outside its chunks, so the app's bundle and the
 * widget never weigh on each other.
 */
function embedScripts(): Plugin {
  return {
    name: 'botty-embed-scripts',
    apply: 'build',
    async closeBundle() {
      for (const [entry, fileName] of [
        ['./src/embed/embed.ts', 'embed.js'],
        ['./src/embed/widget.ts', 'embed-widget.js'],
      ] as const) {
        await build({
          configFile: false,
          logLevel: 'warn',
          resolve: { alias },
          build: {
            outDir: dir('./dist/client'),
            emptyOutDir: false,
            copyPublicDir: false,
            lib: { entry: dir(entry), formats: ['iife'], name: 'bottyEmbed', fileName: () => fileName },
          },
        });
      }
    },
  };
}

/**
 * The Latin face of Inter, preloaded from the page's head: otherwise it is asked for only once the first layout
 * finds text in it, so a first visit shows the fallback font and then moves every line when Inter arrives.
 * Fonts are preloaded anonymously (`crossorigin`), as CSS fetches them, so the preload is the one used.
 */
function preloadLatinFont(): Plugin {
  return {
    name: 'botty-preload-latin-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const font = Object.keys(bundle ?? {}).find((file) =>
          /(^|\/)inter-latin-wght-normal-[\w-]+\.woff2$/.test(file),
        );
        if (!font) throw new Error('The Latin Inter font is missing from the build: its preload has nothing to name');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * React Router's package exports name only its development build, warnings and checks included (92 KB before
 * compression, 5 KB gzip more on the first page); it ships a production build beside it, which the app's build
 * uses. Exact match, so no other import is touched.
 */
const productionReactRouter = {
  find: /^react-router$/,
  replacement: dir('./node_modules/react-router/dist/production/index.mjs'),
};

export default defineConfig(({ command }) => ({
  root: dir('./src/client'),
  publicDir: dir('./src/client/public'),
  plugins: [react(), tailwindcss(), embedScripts(), preloadLatinFont()],
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      ...(command === 'build' ? [productionReactRouter] : []),
    ],
  },
  build: {
    outDir: dir('./dist/client'),
    emptyOutDir: true,
    // scripts/check-bundle.ts reads it to measure what the first page loads.
    manifest: true,
    // Every browser the app supports has <link rel="modulepreload">: the polyfill was half a KB of the first page.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // Required by experimentalInlineCommonChunks: a lazy page's chunk may then hold modules other pages share.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // What the entry loads up front goes in one chunk: left alone, Rolldown splits the modules the entry
          // shares with lazy pages (react, tailwind-merge, the request helpers…) into small chunks, and each
          // compresses on its own (about 3 KB gzip more on the first page).
          groups: [{ name: 'first-page', tags: ['$initial'] }],
          // Modules lazy pages share, under 8 KB, go into each page's own chunk instead of one chunk each: the chat
          // page was 72 chunks (an icon, a constant, a query's options…), and opening it cost a request, a
          // module instance and a <link rel="modulepreload"> apiece on the main thread; now 14 (decision 0052).
          // Styles stay in chunks of their own: Vite's CSS plugin would emit a style once for every copy.
          experimentalInlineCommonChunks: {
            maxSize: 8 * 1024,
            exclude: /\.(css|less|sass|scss|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
}));
