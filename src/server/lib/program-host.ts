import { fork, type ChildProcess } from 'node:child_process';
import { processScript } from './beside-this-build';

/** Bounds of one program's run: killed (SIGKILL) past `timeoutMs`, or once its output passes `maxOutputBytes`. */
export interface RunLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

export interface HostRequest extends RunLimits {
  id: number;
  command: string;
  args: string[];
}

/** What the host tells of a run: its output as it comes (UTF-8, decoded), then how it ended (`failure` null: 0). */
export type HostMessage =
  | { id: number; output: string }
  | {
      id: number;
      failure: { message: string; code: string | number | null; signal: string | null; killed: boolean } | null;
    };

/** The host's own file: beside the built bundle, or its TypeScript source run through tsx's loader. */
const HOST_SCRIPT = processScript(import.meta.url, 'program-host.process');

interface Run {
  output: string[];
  onOutput?: (chunk: string) => void;
  resolve: (output: string) => void;
  reject: (err: Error) => void;
}

/**
 * Starts programs from a small, long-lived process of its own (program-host.process.ts) instead of this one. Linux
 * copies the whole starting process's page tables on `fork`, holding its memory map meanwhile, so every thread of
 * the server, its event loop too, stalled for each program a worker thread started: 16 ms a start in a 166 MB
 * process, 25 ms in 325 MB, 55 ms in 1.1 GB (decision 0072). The host is forked once, on the first run or `warm`,
 * and then forks at its own size. It inherits the calling thread's priority, as a program started directly would.
 * Idle, it keeps neither this process nor its thread alive; it ends when they do.
 */
export function createProgramHost(script = HOST_SCRIPT) {
  let host: ChildProcess | null = null;
  const runs = new Map<number, Run>();
  let nextId = 0;

  function keepAlive(child: ChildProcess, alive: boolean) {
    if (alive) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  function start(): ChildProcess {
    const child = fork(script.path, [], { execArgv: script.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', (message: HostMessage) => {
      const run = runs.get(message.id);
      if (!run) return;
      if ('output' in message) {
        run.output.push(message.output);
        run.onOutput?.(message.output);
        return;
      }
      runs.delete(message.id);
      if (runs.size === 0) keepAlive(child, false);
      if (message.failure === null) run.resolve(run.output.join(''));
      else run.reject(Object.assign(new Error(message.failure.message), message.failure));
    });
    const lost = (err: Error) => {
      if (host === child) host = null;
      for (const run of runs.values()) run.reject(err);
      runs.clear();
    };
    child.on('error', lost);
    child.once('exit', (code, signal) => lost(new Error(`the program host ended (${signal ?? code})`)));
    return child;
  }

  /** `command` run with `args`: resolves with its whole output; `onOutput` hears each piece as it comes. */
  function run(command: string, args: string[], limits: RunLimits, onOutput?: (chunk: string) => void) {
    const child = (host ??= start());
    const id = nextId++;
    return new Promise<string>((resolve, reject) => {
      runs.set(id, { output: [], onOutput, resolve, reject });
      keepAlive(child, true);
      child.send({ id, command, args, ...limits } satisfies HostRequest);
    });
  }

  return {
    run,
    /** Starts the host now, so that the first run does not wait for its start (~0.1 s). */
    warm() {
      if (host) return;
      host = start();
      keepAlive(host, false);
    },
    /** Ends the host, which stops whatever it runs; the next run starts another. */
    close() {
      if (host?.connected) host.disconnect();
      else host?.kill('SIGKILL');
      host = null;
    },
  };
}
