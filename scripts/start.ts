import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { clientBuildNeeded } from './client-build';

// `npm start` must serve the client of the code at hand: on a fresh clone and after a `git pull` alike.
const root = fileURLToPath(new URL('..', import.meta.url));
const reason = clientBuildNeeded(root);
if (reason) {
  console.log(`${reason}; building it (vite build)...`);
  execSync('npx vite build', { stdio: 'inherit', cwd: root });
}
await import('../src/server/main');
