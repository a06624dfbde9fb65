import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the client build is made from: its sources, the shared code, the build config and the dependencies. */
const CLIENT_INPUTS = ['src/client', 'src/shared', 'vite.config.ts', 'package-lock.json'];

/** The latest change below `path`; a folder's own time counts, so a deleted or renamed file counts too. */
function lastChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => lastChange(join(path, name))));
}

/** Why `root`'s client has to be built before it is served, or null when dist/client is up to date. */
export function clientBuildNeeded(root: string): string | null {
  const built = statSync(join(root, 'dist/client/index.html'), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return 'No client build found';
  const changed = CLIENT_INPUTS.find((input) => lastChange(join(root, input)) > built);
  return changed ? `${changed} changed since the client was last built` : null;
}
