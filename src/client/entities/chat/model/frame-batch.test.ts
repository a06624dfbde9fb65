import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameBatch } from './frame-batch';

/** Animation frames the test runs by hand, as a browser would between two paints. */
function manualFrames() {
  const waiting = new Map<number, FrameRequestCallback>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    waiting.set(next, callback);
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => waiting.delete(id));
  return {
    /** `at`: the frame's timestamp, on performance.now()'s clock. */
    paint(at = 0) {
      const callbacks = [...waiting.values()];
      waiting.clear();
      for (const callback of callbacks) callback(at);
    },
  };
}

// The page the batch listens to for key presses and clicks: one for the whole file, as a page is for the module.
const page = new EventTarget();

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('frameBatch', () => {
  it('flushes once a frame however often it is scheduled in between', () => {
    const frames = manualFrames();
    const flush = vi.fn();
    const batch = frameBatch(flush);
    for (let i = 0; i < 50; i += 1) batch.schedule();
    expect(flush).not.toHaveBeenCalled();
    frames.paint();
    expect(flush).toHaveBeenCalledTimes(1);
    frames.paint();
    expect(flush).toHaveBeenCalledTimes(1);
    batch.schedule();
    frames.paint();
    expect(flush).toHaveBeenCalledTimes(2);
  });

  it('flushes at once when asked, and the frame that was waiting then does nothing', () => {
    const frames = manualFrames();
    const flush = vi.fn();
    const batch = frameBatch(flush);
    batch.flushNow();
    expect(flush).not.toHaveBeenCalled();
    batch.schedule();
    batch.flushNow();
    expect(flush).toHaveBeenCalledTimes(1);
    frames.paint();
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('flushes on a timer where no frame comes (a hidden tab)', () => {
    vi.useFakeTimers();
    manualFrames();
    const flush = vi.fn();
    frameBatch(flush).schedule();
    vi.advanceTimersByTime(49);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('leaves the two frames after a key press or a click to it, then flushes', () => {
    vi.stubGlobal('window', page);
    const frames = manualFrames();
    const flush = vi.fn();
    const batch = frameBatch(flush);
    batch.schedule();
    page.dispatchEvent(new Event('keydown'));
    const pressed = performance.now();
    frames.paint(pressed + 10);
    frames.paint(pressed + 26);
    expect(flush).not.toHaveBeenCalled();
    // However fast the keys come, the reply is drawn every third frame at least.
    page.dispatchEvent(new Event('pointerdown'));
    frames.paint(performance.now() + 5);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('flushes in the first frame when the last key press is older than two frames', () => {
    vi.stubGlobal('window', page);
    const frames = manualFrames();
    const flush = vi.fn();
    const batch = frameBatch(flush);
    page.dispatchEvent(new Event('keydown'));
    batch.schedule();
    frames.paint(performance.now() + 40);
    expect(flush).toHaveBeenCalledTimes(1);
  });
});
