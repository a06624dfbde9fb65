import { readFileSync } from 'node:fs';

/**
 * The Node flags `npm start` gives the server (package.json), so a bench measures the server as it is run:
 * the words starting with `--` between `node` and `--import`.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const flags = words.slice(words.indexOf('node') + 1, words.indexOf('--import'));
  if (!words.includes('node') || !flags.length || flags.some((flag) => !flag.startsWith('--'))) {
    throw new Error(`npm start is not "[exec] node <flags> --import tsx …": ${pkg.scripts.start}`);
  }
  return flags;
}
