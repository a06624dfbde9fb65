import { execFile, type ChildProcess } from 'node:child_process';
import type { HostMessage, HostRequest } from './program-host';

/**
 * The program host (program-host.ts): a small process of its own that starts programs for the thread that forked
 * it, so that each start copies this process's few tens of megabytes, not the server's hundreds. Their output is
 * passed back as it comes; when the thread goes away (its channel closes), whatever still runs is stopped.
 */
const running = new Map<number, ChildProcess>();

const send = (message: HostMessage) => process.send?.(message);

process.on('message', ({ id, command, args, timeoutMs, maxOutputBytes }: HostRequest) => {
  const child = execFile(
    command,
    args,
    { encoding: 'utf8', timeout: timeoutMs, maxBuffer: maxOutputBytes, killSignal: 'SIGKILL' },
    (err) => {
      running.delete(id);
      send({
        id,
        failure: err
          ? { message: err.message, code: err.code ?? null, signal: err.signal ?? null, killed: err.killed ?? false }
          : null,
      });
    },
  );
  running.set(id, child);
  child.stdout?.on('data', (output: string) => send({ id, output }));
});

process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
