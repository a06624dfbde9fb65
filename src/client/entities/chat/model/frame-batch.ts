/** A hidden tab runs no animation frames; a timer flushes there instead (browsers slow it to once a second). */
const FALLBACK_MS = 50;

/**
 * Runs `flush` at most once an animation frame however often `schedule` is called, or at once with `flushNow`
 * (the stream ended, failed or was stopped: nothing waits for a frame that may not come).
 */
export function frameBatch(flush: () => void) {
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (timer === undefined) return;
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = timer = undefined;
    flush();
  };
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(run, FALLBACK_MS);
      if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(run);
    },
    flushNow: run,
  };
}
