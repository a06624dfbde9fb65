import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type TsxExport = '.' | './esm/api';

/**
 * One of tsx's exports as a file URL: a thread or process started from the TypeScript sources resolves bare names
 * from the working directory, which need not be the project's, so the path is found here, from this module,
 * through tsx's own exports map.
 */
export function tsxUrl(name: TsxExport): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: { '.': string; './esm/api': { import: { default: string } } };
  };
  const file = name === '.' ? exports['.'] : exports['./esm/api'].import.default;
  return pathToFileURL(join(dirname(manifest), file)).href;
}

/**
 * Whether `moduleUrl` (a caller's `import.meta.url`) is one of the TypeScript sources (tests, `npm run dev`) rather
 * than the built server, whose threads' and processes' own files sit beside its bundle (decision 0055).
 */
export const runsFromSources = (moduleUrl: string) => moduleUrl.endsWith('.ts');

/**
 * What a worker thread named `name` runs, beside the module at `moduleUrl` (a caller's `import.meta.url`): the
 * built server has the thread's own file `<name>.mjs` beside its bundle; run from the TypeScript sources, a
 * worker starts without tsx's loader, so a small script registers it before importing `<name>.ts`.
 */
export function threadScript(moduleUrl: string, name: string): { script: string | URL; eval: boolean } {
  if (!runsFromSources(moduleUrl)) return { script: new URL(`./${name}.mjs`, moduleUrl), eval: false };
  const entry = JSON.stringify(new URL(`./${name}.ts`, moduleUrl).href);
  const script = `import(${JSON.stringify(tsxUrl('./esm/api'))}).then((tsx) => { tsx.register(); return import(${entry}); })`;
  return { script, eval: true };
}

/**
 * What a child process named `name` runs, as `threadScript` finds a thread's: `<name>.mjs` beside the built bundle,
 * or `<name>.ts` under tsx's loader when run from the sources.
 */
export function processScript(moduleUrl: string, name: string): { path: string; execArgv: string[] } {
  if (!runsFromSources(moduleUrl)) return { path: fileURLToPath(new URL(`./${name}.mjs`, moduleUrl)), execArgv: [] };
  return { path: fileURLToPath(new URL(`./${name}.ts`, moduleUrl)), execArgv: ['--import', tsxUrl('.')] };
}
