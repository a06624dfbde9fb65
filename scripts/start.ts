import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `npm start` on a fresh clone must just work: build the client once when no build exists.
const index = fileURLToPath(new URL('../dist/client/index.html', import.meta.url));
if (!existsSync(index)) {
  console.log('No client build found; building it once (vite build)...');
  execSync('npx vite build', { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) });
}
await import('../src/server/main');
