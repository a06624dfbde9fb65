import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNeeded } from '../../scripts/builds';

describe('buildNeeded (npm start)', () => {
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
    for (const path of ['src/client/main.tsx', 'src/server/main.ts', 'src/shared/constants.ts', 'vite.config.ts'])
      file(path, 60);
    for (const path of ['tsconfig.json', 'scripts/builds.ts', 'package-lock.json']) file(path, 60);
  }

  it('builds when there is no build', () => {
    checkout();
    expect(buildNeeded(root, 'client')).toBe('No client build found');
    expect(buildNeeded(root, 'server')).toBe('No server build found');
  });

  it('serves builds newer than every input, each judged by its own inputs', () => {
    checkout();
    file('dist/client/index.html', 30);
    file('dist/server/main.mjs', 30);
    expect(buildNeeded(root, 'client')).toBeNull();
    expect(buildNeeded(root, 'server')).toBeNull();
    file('src/server/modules/chat/x.ts', 1);
    expect(buildNeeded(root, 'client')).toBeNull();
    expect(buildNeeded(root, 'server')).toBe('src/server changed since the server was last built');
  });

  it.each([
    ['client', 'src/client/features/x/page.tsx'],
    ['client', 'src/shared/contracts/bots.ts'],
    ['client', 'vite.config.ts'],
    ['client', 'package-lock.json'],
    ['server', 'src/server/app.ts'],
    ['server', 'src/shared/contracts/bots.ts'],
    ['server', 'tsconfig.json'],
    ['server', 'package-lock.json'],
  ] as const)('rebuilds the %s after %s changed (e.g. by git pull)', (name, changed) => {
    checkout();
    file('dist/client/index.html', 30);
    file('dist/server/main.mjs', 30);
    file(changed, 1);
    expect(buildNeeded(root, name)).toMatch(new RegExp(`changed since the ${name} was last built$`));
  });
});
