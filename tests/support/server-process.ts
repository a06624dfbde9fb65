import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { apiClient } from './api-client';
import type { TestDb } from './databases';

// Built by the node project's global setup (tests/support/build-server.ts), as `npm start` builds it.
const MAIN = fileURLToPath(new URL('../../dist/server/main.mjs', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How a server process reaches the test database: a file, or the test's own PostgreSQL schema. */
export function databaseUrl(testDb: Pick<TestDb, 'target'>) {
  const target = testDb.target;
  if (target.kind === 'sqlite') return target.path;
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.searchPath}`);
  return url.toString();
}

/**
 * How long a server process may take to answer its health check: ~2 s on an idle 2-core machine, many times that
 * beside the rest of the suite (while it compiled its TypeScript as it started, over 20 s).
 */
const READY_TIMEOUT_MS = 60_000;

/**
 * The real server as its own process (the built `dist/server/main.mjs`, as `npm start` runs it), for what an in-process app
 * cannot show: being killed with SIGKILL, or several instances sharing one database and Redis.
 */
export async function startServerProcess(env: Record<string, string>, { readyTimeoutMs = READY_TIMEOUT_MS } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const client = apiClient(`http://127.0.0.1:${port}`);

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    const up = await client.request('GET', '/api/health').catch(() => null);
    if (up?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in ${readyTimeoutMs} ms: ${stderr}`);
    }
    await sleep(20);
  }

  return {
    ...client,
    /** What the process wrote to stderr so far. */
    stderr: () => stderr,
    /** Kills it the hard way (no shutdown hooks), as a crash or an OOM kill would. */
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    /** Asks it to shut down gracefully and waits until it has. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
