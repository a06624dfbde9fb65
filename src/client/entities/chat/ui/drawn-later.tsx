import { type ReactNode, useDeferredValue } from 'react';

/**
 * `children`, or, when `later`, a blank of `heightPx` first and `children` in React's background rendering, which
 * yields to the browser between pieces of work. Mounted within a scroll event, a row's markdown, buttons and
 * icons were drawn inside it: 20–60 ms tasks on a slow machine, a dropped frame each, while reading a long
 * conversation back. The blank keeps the height the row had (its measured one, or the estimate), so nothing moves.
 */
export function DrawnLater({ later, heightPx, children }: { later: boolean; heightPx: number; children: ReactNode }) {
  // Without an initial value (not `later`), the value is used at once; which applies is decided when mounted.
  const drawn = useDeferredValue(true, later ? false : undefined);
  return drawn ? children : <div style={{ height: Math.max(0, heightPx) }} />;
}
