import { readFileSync } from 'node:fs';

/**
 * The Node flags `npm start` gives the server (package.json), so a bench measures the server as it is run:
 * the words starting with `--` after the `exec node` that runs the server's build.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const node = words.findIndex((word, i) => word === 'node' && words[i - 1] === 'exec');
  const flags = words.slice(node + 1, words.indexOf('dist/server/main.mjs'));
  if (node < 0 || !flags.length || flags.some((flag) => !flag.startsWith('--'))) {
    throw new Error(`npm start does not end in "exec node <flags> dist/server/main.mjs": ${pkg.scripts.start}`);
  }
  return flags;
}
