import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Every bench/*.ts but this one, one after another, each in a process of its own so none skews another's figures.
const dir = fileURLToPath(new URL('.', import.meta.url));
const benches = readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .sort();

for (const bench of benches) {
  console.log(`\n=== ${bench}`);
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', join(dir, bench)], { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`${bench} failed (exit code ${status})`);
    process.exitCode = 1;
  }
}
