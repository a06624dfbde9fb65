import type { FastifyBaseLogger } from 'fastify';

/**
 * The loop of a background job runner (knowledge files, evaluations): a pass, then a wait of `pollMs` for work
 * queued elsewhere (another instance, a run left by a dead one) that a wake-up cuts short. A wake-up that comes
 * during a pass skips the next wait, so nothing waits a whole poll. A pass that throws is logged and the loop
 * goes on. `signal` aborts when the runner stops, for the work in hand to give itself back.
 */
export function jobLoop(options: { pollMs: number; log: FastifyBaseLogger; what: string; pass: () => Promise<void> }) {
  let running = false;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const stopping = new AbortController();

  async function run() {
    while (running) {
      try {
        await options.pass();
      } catch (err) {
        options.log.error({ err }, `${options.what} pass failed`);
      }
      if (!running) return;
      if (woken) {
        woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs).unref();
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = null;
    }
  }

  return {
    /** Whether the runner should go on taking work. */
    get running() {
      return running;
    },
    signal: stopping.signal,
    /** False when it was running already. */
    start(): boolean {
      if (running) return false;
      running = true;
      loop = run();
      return true;
    },
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
    /** Ends the wait at once and resolves once the pass in hand has ended. */
    async stop() {
      running = false;
      stopping.abort();
      wakeUp?.();
      await loop;
    },
  };
}
