/** A hidden tab runs no animation frames; a timer flushes there instead (browsers slow it to once a second). */
const FALLBACK_MS = 50;
/**
 * How long after a key press or click the batch keeps out of the frames, and for how many frames in a row at most
 * (two at 60 Hz): the frame that shows the key, and the one after it while the last frame's text is still being
 * rastered, have nothing else to draw (decision 0060).
 */
const YIELD_MS = 33;
const YIELD_FRAMES = 2;

let lastInputAt = Number.NEGATIVE_INFINITY;
let listening = false;

function listenForInput() {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  // On the clock of animation frames' timestamps.
  const note = () => {
    lastInputAt = performance.now();
  };
  for (const type of ['keydown', 'pointerdown']) window.addEventListener(type, note, { capture: true, passive: true });
}

/**
 * Runs `flush` at most once an animation frame however often `schedule` is called, or at once with `flushNow`
 * (the stream ended, failed or was stopped: nothing waits for a frame that may not come). Input comes first: a
 * frame within YIELD_MS of a key press or click passes the flush on to the next, YIELD_FRAMES times at most, so
 * typing while a reply streams is drawn in the very next frame and the stream goes on a frame or two later.
 */
export function frameBatch(flush: () => void) {
  listenForInput();
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let yielded = 0;
  const run = () => {
    if (timer === undefined) return;
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = timer = undefined;
    yielded = 0;
    flush();
  };
  const onFrame = (now: number) => {
    if (yielded < YIELD_FRAMES && now - lastInputAt < YIELD_MS) {
      yielded += 1;
      frame = requestAnimationFrame(onFrame);
      return;
    }
    run();
  };
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(run, FALLBACK_MS);
      if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(onFrame);
    },
    flushNow: run,
  };
}
