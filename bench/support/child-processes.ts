import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Every process a bench started, for the bench to kill when it gives up or to let go of at its end. */
export const children: ChildProcess[] = [];

/**
 * A script of the bench (support/*-process.ts) in a Node process of its own, with `args` as JSON in its argv;
 * resolves with the first message it sends (what it is ready to serve), rejects if it exits before.
 */
export function startChild<T>(
  script: URL,
  args: object,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(fileURLToPath(script), [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited with code ${code} before it was ready`)));
  });
}
