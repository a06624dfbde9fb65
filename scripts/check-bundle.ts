/**
 * The bundle budget (issue 10): the JavaScript a visitor downloads for the first page, `/` or `/login`, gzip,
 * stays under BUDGET_KB, and each script of the embeddable widget under EMBED_BUDGET_KB. Reads the Vite manifest of the last build, follows each page's static imports from the
 * entry, and fails (exit 1) with the list of chunks when a page goes over. Run after `vite build`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = 150;
/** The embeddable widget (decision 0018): its loader on other sites' pages, and the script of the page it frames. */
export const EMBED_BUDGET_KB = 20;
const EMBED_SCRIPTS = ['embed.js', 'embed-widget.js'];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  /** Loaded later, on demand: not part of the first page. */
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The page components each first page renders besides the entry (a lazy page adds its chunk). */
const FIRST_PAGES: Record<string, string[]> = {
  '/': ['features/landing/components/landing-page.tsx', 'features/layout/components/navigation-bar.tsx'],
  '/login': ['features/auth/components/login-page.tsx'],
};

/** The chunk keys a page needs: the entry's and its page component's, with their static imports. */
export function chunksOf(manifest: Manifest, pageSources: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || pageSources.some((page) => key.endsWith(page))) visit(key);
  }
  return [...seen].filter((key) => manifest[key]!.file.endsWith('.js'));
}

function main() {
  const dist = fileURLToPath(new URL('../dist/client/', import.meta.url));
  const manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8')) as Manifest;
  const kb = (file: string) => gzipSync(readFileSync(dist + file)).length / 1024;
  let over = false;
  for (const [page, sources] of Object.entries(FIRST_PAGES)) {
    const files = chunksOf(manifest, sources).map((key) => manifest[key]!.file);
    const total = files.reduce((sum, file) => sum + kb(file), 0);
    const verdict = total <= BUDGET_KB ? 'ok' : 'OVER BUDGET';
    console.log(`bundle budget ${page}: ${total.toFixed(1)} KB gzip of ${BUDGET_KB} KB — ${verdict}`);
    if (total > BUDGET_KB) {
      over = true;
      for (const file of files) console.log(`  ${kb(file).toFixed(1).padStart(7)} KB  ${file}`);
    }
  }
  for (const file of EMBED_SCRIPTS) {
    const size = kb(file);
    const verdict = size <= EMBED_BUDGET_KB ? 'ok' : 'OVER BUDGET';
    console.log(`widget budget ${file}: ${size.toFixed(1)} KB gzip of ${EMBED_BUDGET_KB} KB — ${verdict}`);
    if (size > EMBED_BUDGET_KB) over = true;
  }
  if (over) process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
