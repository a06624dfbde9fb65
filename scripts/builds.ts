import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** What each build is made from, and the file whose date says when it was last made. */
const BUILDS = {
  client: { output: 'dist/client/index.html', inputs: ['src/client', 'src/shared', 'vite.config.ts'] },
  server: {
    output: 'dist/server/main.mjs',
    inputs: ['src/server', 'src/shared', 'scripts/builds.ts', 'tsconfig.json'],
  },
} as const;
export type BuildName = keyof typeof BUILDS;

/** The latest change below `path`; a folder's own time counts, so a deleted or renamed file counts too. */
function lastChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => lastChange(join(path, name))));
}

/** Why `root`'s build `name` has to be made before it is served, or null when it is up to date. */
export function buildNeeded(root: string, name: BuildName): string | null {
  const { output, inputs } = BUILDS[name];
  const built = statSync(join(root, output), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return `No ${name} build found`;
  // The dependencies are an input of both.
  const changed = [...inputs, 'package-lock.json'].find((input) => lastChange(join(root, input)) > built);
  return changed ? `${changed} changed since the ${name} was last built` : null;
}

/** The server's worker threads and helper processes, each an entry of its own beside whatever bundle holds the server. */
export const SERVER_WORKERS = {
  'extract.worker': 'src/server/modules/files/extract.worker.ts',
  'program-host.process': 'src/server/lib/program-host.process.ts',
  'vector-scan.worker': 'src/server/modules/files/vector-scan.worker.ts',
};

/**
 * The server as plain JavaScript, so that it starts without compiling TypeScript (5-6 s through tsx on a 2-core
 * machine, under 2 s built; decision 0055). Packages stay imports of node_modules; the server's worker threads and
 * the program host are entries of their own, started from beside the server's file.
 */
async function buildServer(root: string) {
  await bundleForNode(root, { main: 'src/server/main.ts', ...SERVER_WORKERS });
}

/**
 * Plain JavaScript modules made from TypeScript entry points (name → path from `root`), as the server is built:
 * one file per entry in `outdir`, packages left as imports of node_modules.
 */
export async function bundleForNode(root: string, entryPoints: Record<string, string>, outdir = 'dist/server') {
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** Makes each build of `names` that is missing or older than its inputs (all of them with `force`). */
export async function makeBuilds(root: string, names: readonly BuildName[], { force = false } = {}) {
  for (const name of names) {
    const reason = force ? 'Building' : buildNeeded(root, name);
    if (!reason) continue;
    console.log(`${reason}; building the ${name}...`);
    if (name === 'client') execSync('npx vite build', { stdio: 'inherit', cwd: root });
    else await buildServer(root);
  }
}
