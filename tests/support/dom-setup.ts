import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { queryClient } from '@/lib/query-client';

// Lazily loaded parts (the toaster, markdown) are compiled by Vite at their first import, which beside the rest of
// the suite on two cores took longer than Testing Library's 1 s default wait (a clean-clone run's "Role changed"
// toast). A failure waits longer; a pass does not.
configure({ asyncUtilTimeout: 10_000 });

// What jsdom lacks and the screens call. No media query matches (a touch screen, motion allowed). Nothing is
// laid out, so nothing resizes, and every element is given a desktop-sized box: virtualised lists draw only
// the rows that fit in their scroller's.
for (const [name, size] of [
  ['clientWidth', 1024],
  ['clientHeight', 768],
] as const) {
  Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => size });
}
window.matchMedia = (query) =>
  ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }) as unknown as MediaQueryList;
window.scrollTo = () => {};
// Radix's Select captures the pointer and scrolls its chosen option into view.
Element.prototype.hasPointerCapture = () => false;
Element.prototype.releasePointerCapture = () => {};
Element.prototype.scrollIntoView = () => {};
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Testing Library unmounts by itself only where test globals are on; they are off here. The app's one query
// client and the browser's storage are emptied too, so that nothing of one test reaches the next.
afterEach(() => {
  cleanup();
  queryClient.clear();
  localStorage.clear();
  sessionStorage.clear();
});
