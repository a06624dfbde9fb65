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
    paint() {
      const callbacks = [...waiting.values()];
      waiting.clear();
      for (const callback of callbacks) callback(0);
    },
  };
}

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
});
