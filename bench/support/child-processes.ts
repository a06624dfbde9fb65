import { type ChildProcess, fork } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode, SERVER_WORKERS } from '../../scripts/builds';

/** Every process a bench started, for the bench to kill when it gives up or to let go of at its end. */
export const children: ChildProcess[] = [];

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Two folders down from the root, as the server's build is, so paths it finds from its own file hold. */
const BUILT_DIR = 'dist/bench';

/**
 * A script of the bench (support/*-process.ts) in a Node process of its own, with `args` as JSON in its argv;
 * resolves with the first message it sends (what it is ready to serve), rejects if it exits before.
 *
 * `built`: run as the server runs in production, bundled into plain JavaScript (dist/bench) with no TypeScript
 * loader in the process, rather than through tsx. Its code is then what `npm start` runs, and a CPU profile of it
 * names functions and lines (tsx's output is one line per file).
 */
export async function startChild<T>(
  script: URL,
  args: object,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; built?: boolean } = {},
): Promise<{ child: ChildProcess; ready: T }> {
  const source = fileURLToPath(script);
  const name = basename(source, '.ts');
  // The server's workers beside it, where the bundled server starts them from.
  if (options.built) await bundleForNode(root, { [name]: source, ...SERVER_WORKERS }, BUILT_DIR);
  const child = fork(options.built ? `${root}/${BUILT_DIR}/${name}.mjs` : source, [JSON.stringify(args)], {
    execArgv: [...(options.built ? [] : ['--import', 'tsx']), ...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited with code ${code} before it was ready`)));
  });
}
