import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from './support/databases';
import { redisTestSpace, TEST_REDIS_URL } from './support/redis';
import { databaseUrl } from './support/server-process';
import { until } from './support/wait';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

/** Distinct ports, all held open at once so no two are the same. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function status(port: number, path = '/api/health'): Promise<number | null> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  await res?.body?.cancel();
  return res?.status ?? null;
}

/** The processes of a group, as `ps` lists them: what outlived the example, when something did. */
const groupProcesses = (pgid: number) =>
  spawnSync('ps', ['-eo', 'pgid=,pid=,etime=,args='], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.trim().split(/\s+/)[0] === String(pgid))
    .join('\n');

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// deploy/run-two-instances.sh as an operator runs it: real instances, real nginx, the test's PostgreSQL schema
// and a Redis prefix of its own. CI installs nginx (`apt-get install -y nginx`).
describe.runIf(databaseKinds.includes('postgres'))('the deploy example', () => {
  const space = redisTestSpace();
  let testDb: TestDb;
  let runDir: string;
  let example: ChildProcess;
  let output = '';

  beforeAll(async () => {
    testDb = await createTestDb('postgres');
    runDir = mkdtempSync(join(tmpdir(), 'botty-deploy-'));
  });
  afterAll(async () => {
    // Whatever a failed run left behind: the script and everything it started share its process group.
    if (example?.pid && groupAlive(example.pid)) process.kill(-example.pid, 'SIGKILL');
    await testDb?.drop();
    await space.cleanup();
    rmSync(runDir, { recursive: true, force: true });
  });

  it('keeps answering through the balancer when one instance is killed, restarts it, and stops cleanly on Ctrl-C', async () => {
    expect(NGINX, 'nginx is not installed: apt-get install -y nginx').toBeDefined();
    const [lb, first, second] = (await freePorts(3)) as [number, number, number];
    example = spawn('bash', ['deploy/run-two-instances.sh'], {
      cwd: ROOT,
      // Its own process group, so the test can tell that nothing of it outlives it.
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(testDb),
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: space.prefix,
        PORTS: `${first} ${second}`,
        LB_PORT: String(lb),
        RUN_DIR: runDir,
        FILES_DIR: join(runDir, 'files'),
        NGINX,
        SKIP_CLIENT_BUILD: '1',
        RESTART_DELAY_S: '0.2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    example.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    example.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => example.once('exit', (code) => resolve(code)));
    const pidOf = (port: number) => Number(readFileSync(join(runDir, `botty-${port}.pid`), 'utf8'));
    // A failure shows what the supervisors and the instances said.
    const waitFor = (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000) =>
      until(check, { what, timeoutMs, intervalMs: 50 }).catch((err: Error) => {
        const logs = readdirSync(runDir).filter((name) => name.endsWith('.log'));
        const tails = logs.map((name) => `--- ${name}\n${readFileSync(join(runDir, name), 'utf8').slice(-2000)}`);
        throw new Error([err.message, `--- the example's output\n${output}`, ...tails].join('\n'));
      });

    // Two instances starting at once beside the rest of the suite: over 40 s in a clean-clone run on two cores.
    await waitFor(async () => (await status(lb)) === 200, 'the balancer to answer', 120_000);
    const killed = pidOf(first);
    const survivor = pidOf(second);
    process.kill(killed, 'SIGKILL');
    await waitFor(async () => (await status(first)) === null, 'the killed instance to be gone');

    // Every request through the balancer while the instance is down is answered, by the survivor.
    const answers: (number | null)[] = [];
    await waitFor(
      async () => {
        answers.push(await status(lb));
        return (await status(first)) === 200;
      },
      'the killed instance to be back',
      60_000,
    );
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((code) => code === 200)).toBe(true);
    expect(pidOf(first)).not.toBe(killed);
    expect(pidOf(second)).toBe(survivor);
    expect(output).toMatch(new RegExp(`botty-${first} exited with status \\d+; restarting it`));

    // Ctrl-C in a terminal: SIGINT to every process of the foreground group, the instances' node processes too.
    process.kill(-example.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    // Stopping restarted nothing: the one restart is the killed instance's.
    expect(output.match(/restarting it/g)).toHaveLength(1);
    // Some seconds: on a busy machine (a clean-clone CI run, tests in parallel) one was still there after 2 s once;
    // should it happen again, the error lists what was.
    await waitFor(() => !groupAlive(example.pid!), 'every process of the example to exit', 10_000).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n--- still running\n${groupProcesses(example.pid!)}`);
      },
    );
  }, 240_000);
});
