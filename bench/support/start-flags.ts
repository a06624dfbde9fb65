import { readFileSync } from 'node:fs';

/**
 * The Node flags `npm start` gives the server (package.json), so a bench measures the server as it is run:
 * the tokens starting with `--` before `--import`.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const flags = words.slice(1, words.indexOf('--import'));
  if (words[0] !== 'node' || flags.some((flag) => !flag.startsWith('--'))) {
    throw new Error(`npm start is not "node <flags> --import tsx …": ${pkg.scripts.start}`);
  }
  return flags;
}
