import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface PeriodicTask {
  /** For the log lines. */
  name: string;
  intervalMs: number;
  /** A task that runs every second or so: only its failures are logged. */
  quiet?: boolean;
  /** What it did, for an info line when there was something (a count, or an object of counts). */
  run(): Promise<number | Record<string, number>>;
}

const didSomething = (result: number | Record<string, number>) =>
  typeof result === 'number' ? result > 0 : Object.values(result).some((n) => n > 0);

/**
 * Runs a housekeeping task once the server is ready, then every `intervalMs`, one run at a time. The timer is
 * unref'd so it never keeps the process alive, and closing the app waits for a running task instead of pulling
 * the database from under it. A failure is logged and the next run tries again.
 */
export const periodicTaskPlugin = fp(async (app: FastifyInstance, task: PeriodicTask) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      try {
        const result = await task.run();
        if (!task.quiet && didSomething(result)) app.log.info({ task: task.name, result }, `${task.name}: done`);
      } catch (err) {
        app.log.warn({ err, task: task.name }, `${task.name} failed; trying again later`);
      }
    });
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, task.intervalMs).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
});
