import { fileURLToPath } from 'node:url';
import { makeBuilds } from './builds';

// `npm start` and the deploy example build what the code at hand needs, on a fresh clone and after a `git pull`
// alike; `npm run build` builds everything again. --server-only leaves the client alone (an API-only instance).
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
await makeBuilds(root, args.includes('--server-only') ? ['server'] : ['client', 'server'], {
  force: args.includes('--force'),
});
