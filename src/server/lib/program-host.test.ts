import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgramHost } from './program-host';

/**
 * Programs started through the host (decision 0072) are real ones (sh, sleep): what matters is that they run as
 * children of the host, not of this process, and that their bounds and failures reach the caller as before.
 */
const LIMITS = { timeoutMs: 10_000, maxOutputBytes: 1024 * 1024 };
const host = createProgramHost();
afterAll(() => host.close());

const sh = (script: string, limits = LIMITS, onOutput?: (chunk: string) => void) =>
  host.run('sh', ['-c', script], limits, onOutput);

/** The fields of /proc/<pid>/stat after the name in parentheses: the state, then the parent's id. */
const statOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
const parentOf = (pid: number) => Number(statOf(pid)[1]);

/** Not ended: a killed program whose parent has gone stays a zombie until the machine's init reaps it. */
const running = (pid: number) => {
  try {
    return statOf(pid)[0] !== 'Z';
  } catch {
    return false;
  }
};

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(25);
  expect(condition()).toBe(true);
}

describe('the program host', () => {
  it('starts programs from one process of its own, not from this one', async () => {
    const first = Number(await sh('echo $PPID'));
    const second = Number(await sh('echo $PPID'));
    expect(first).not.toBe(process.pid);
    expect(second).toBe(first);
    // The host is this process's child.
    expect(parentOf(first)).toBe(process.pid);
  });

  it('passes the output on as it comes, then resolves with all of it', async () => {
    const pieces: string[] = [];
    const output = await sh("printf 'one\\f'; sleep 0.2; printf 'two\\f'", LIMITS, (chunk) => pieces.push(chunk));
    expect(output).toBe('one\ftwo\f');
    expect(pieces).toEqual(['one\f', 'two\f']);
  });

  it('rejects as execFile does when a program fails, is missing, overruns its time or its output', async () => {
    await expect(sh('exit 3')).rejects.toMatchObject({ code: 3 });
    await expect(host.run('/nonexistent/pdftotext', [], LIMITS)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(sh('sleep 5', { ...LIMITS, timeoutMs: 100 })).rejects.toMatchObject({
      killed: true,
      signal: 'SIGKILL',
    });
    await expect(sh('yes', { ...LIMITS, maxOutputBytes: 1000 })).rejects.toMatchObject({
      code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
    });
    // Still usable after all of them.
    await expect(sh('echo fine')).resolves.toBe('fine\n');
  });

  it('stops what it runs when it is closed, and starts afresh on the next run', async () => {
    const own = createProgramHost();
    let sleeper = 0;
    const ended = own
      .run('sh', ['-c', 'echo $$; exec sleep 30'], LIMITS, (chunk) => (sleeper = Number(chunk)))
      .catch((err: unknown) => err);
    await until(() => sleeper > 0);
    own.close();
    expect(await ended).toBeInstanceOf(Error);
    await until(() => !running(sleeper));
    await expect(own.run('sh', ['-c', 'echo again'], LIMITS)).resolves.toBe('again\n');
    own.close();
  });

  it('rejects the runs of a host that dies, and replaces it', async () => {
    const own = createProgramHost();
    let pids: number[] = [];
    const sleeping = own
      .run('sh', ['-c', 'echo $PPID $$; exec sleep 30'], LIMITS, (chunk) => (pids = chunk.split(' ').map(Number)))
      .catch((err: unknown) => err);
    await until(() => pids.length === 2);
    const [hostPid, sleeper] = pids as [number, number];
    process.kill(hostPid, 'SIGKILL');
    expect(String(await sleeping)).toMatch(/the program host ended \(SIGKILL\)/);
    // Killed outright, the host could not stop its program.
    process.kill(sleeper, 'SIGKILL');
    const next = Number(await own.run('sh', ['-c', 'echo $PPID'], LIMITS));
    expect(next).not.toBe(hostPid);
    expect(parentOf(next)).toBe(process.pid);
    own.close();
  });
});
