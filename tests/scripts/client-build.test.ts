import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientBuildNeeded } from '../../scripts/client-build';

describe('clientBuildNeeded (npm start)', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes a file of the fake checkout, dated `minutesAgo`, its folders too. */
  function file(path: string, minutesAgo: number) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    const at = new Date(Date.now() - minutesAgo * 60_000);
    for (let p = full; p.startsWith(root) && p !== root; p = dirname(p)) utimesSync(p, at, at);
  }

  function checkout() {
    root = mkdtempSync(join(tmpdir(), 'botty-start-'));
    file('src/client/main.tsx', 60);
    file('src/shared/constants.ts', 60);
    file('vite.config.ts', 60);
    file('package-lock.json', 60);
  }

  it('builds when there is no build', () => {
    checkout();
    expect(clientBuildNeeded(root)).toBe('No client build found');
  });

  it('serves a build newer than every client input', () => {
    checkout();
    file('dist/client/index.html', 30);
    file('src/server/main.ts', 1);
    expect(clientBuildNeeded(root)).toBeNull();
  });

  it.each(['src/client/features/x/page.tsx', 'src/shared/contracts/bots.ts', 'vite.config.ts', 'package-lock.json'])(
    'rebuilds after %s changed (e.g. by git pull)',
    (changed) => {
      checkout();
      file('dist/client/index.html', 30);
      file(changed, 1);
      expect(clientBuildNeeded(root)).toMatch(/changed since the client was last built$/);
    },
  );
});
