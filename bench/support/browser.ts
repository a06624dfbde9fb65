import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * What the browser benches share: the built client they serve, the system Chromium (playwright-core) at
 * 1280×800, a context signed in with a token, and a recorder of what the page's main thread went through
 * (animation frames, long tasks, typing).
 */

/**
 * The built client: dist/client (`npx vite build`), or BENCH_CLIENT_DIR, e.g. a build of its own that another
 * `vite build` emptying dist/client cannot pull from under a run.
 */
export function builtClientDir() {
  const dir = process.env.BENCH_CLIENT_DIR ?? fileURLToPath(new URL('../../dist/client', import.meta.url));
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`no built client in ${dir}: run \`npx vite build\` first (or set BENCH_CLIENT_DIR)`);
  return dir;
}

export { launchChromium } from '../../tests/support/chromium';

/** A browser context on the app at `baseURL`, signed in as the person whose token it is before any page loads. */
export async function signedInContext(browser: Browser, baseURL: string, token: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  await context.addInitScript(`localStorage.setItem('authToken', ${JSON.stringify(token)})`);
  return context;
}

/**
 * Warns when Chromium runs pages of its own (top-chrome WebUI, such as its omnibox popups) beside a new page of
 * `context`: each is a renderer of its own on the same two cores as the app's page and server. tests/support/chromium.ts
 * switches off those known; one came with a Chromium update and took ~0.8 s of a core with every new page, slowing the
 * benches' openings and the end-to-end run by a sixth, unseen (session 37).
 */
export async function warnOfBrowserOwnPages(context: BrowserContext) {
  const page = await context.newPage();
  const cdp = await context.browser()!.newBrowserCDPSession();
  try {
    // The popup came within a second of a new page.
    await page.waitForTimeout(1_500);
    const { targetInfos } = await cdp.send('Target.getTargets');
    const own = targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => target.url);
    if (own.length)
      console.warn(
        `Chromium runs pages of its own beside the app's, sharing the cores: ${own.join(', ')} ` +
          '(switch them off in tests/support/chromium.ts)',
      );
  } finally {
    await cdp.detach();
    await page.close();
  }
}

/**
 * In the page: animation frame intervals, long tasks (> 50 ms) and each key's latency (its event time to the
 * frame after it), from now until stopRecording. A string, not a function: tsx's transform would name the
 * function's inner functions with a helper the page lacks.
 */
const RECORDER = `(() => {
  const state = { frames: [], longTasks: [], typing: [], slowKeys: [], keyWork: [], running: true };
  window.__bench = state;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  // The browser's own measure of a key's latency (Event Timing, as Interaction to Next Paint counts it): from the
  // key's event to the paint that shows its effect. Only keys of 16 ms or more are reported.
  const keys = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'keydown') state.slowKeys.push(entry.duration);
  });
  keys.observe({ type: 'event', durationThreshold: 16 });
  state.observers = [observer, keys];
  let last = performance.now();
  const tick = (now) => {
    if (!state.running) return;
    state.frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // A key's own work on the main thread: from its keydown reaching the page to its input event handled (the page's
  // handlers and the text box's editing, all in the key's task); window's listener runs after the page's own.
  let keyStarted = 0;
  document.addEventListener('keydown', (event) => {
    if (!state.running) return;
    keyStarted = performance.now();
    const at = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => state.typing.push(performance.now() - at)));
  }, true);
  window.addEventListener('input', () => {
    if (!state.running || !keyStarted) return;
    state.keyWork.push(performance.now() - keyStarted);
    keyStarted = 0;
  });
})()`;

export interface Recording {
  frames: number[];
  longTasks: number[];
  typing: number[];
  /** Event Timing durations of the keys that took 16 ms or more to their next paint. */
  slowKeys: number[];
  /** Each key's own main-thread work: its keydown to its input event handled (ms). */
  keyWork: number[];
}

export const startRecording = (page: Page) => page.evaluate(RECORDER);

export const stopRecording = (page: Page) =>
  page.evaluate<Recording>(`(() => {
    const { frames, longTasks, typing, slowKeys, keyWork } = window.__bench;
    window.__bench.running = false;
    for (const observer of window.__bench.observers) observer.disconnect();
    return { frames, longTasks, typing, slowKeys, keyWork };
  })()`);

export const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/**
 * The share of keys the browser showed within 16 ms of their event (Event Timing, in its steps of 8 ms: those it
 * did not report, and those it reported at 16 ms), i.e. in the frame after the key.
 */
export function shownWithin16Ms({ typing, slowKeys }: Recording) {
  if (!typing.length) return NaN;
  return 1 - slowKeys.filter((duration) => duration > 16).length / typing.length;
}

/**
 * The p95 of the keys' Event Timing durations (key to next paint), as far as it is known: the browser reports only
 * keys of 16 ms or more, so a p95 among the unreported ones is "under 16 ms" (0 here).
 */
export function keyToPaintP95({ typing, slowKeys }: Recording) {
  const unreported = Math.max(0, typing.length - slowKeys.length);
  return percentile([...new Array<number>(unreported).fill(0), ...slowKeys], 95);
}

/**
 * The typing of a page that does nothing: the same keys, at the same pace, into a bare textarea of an empty page, in
 * a new page of `browser`. A key's latency is measured to the animation frame after it, so it includes the wait for
 * that frame (up to one frame interval, 16.7 ms at 60 Hz): no page measures under this floor, whatever it does, and
 * the app's own cost is its figure above it.
 */
export async function typeIntoEmptyPage(browser: Browser, keys: string, delayMs: number) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.setContent('<textarea aria-label="Message"></textarea>');
    const textarea = page.getByRole('textbox', { name: 'Message' });
    await textarea.click();
    await startRecording(page);
    await textarea.pressSequentially(keys, { delay: delayMs });
    await page.waitForTimeout(100);
    return await stopRecording(page);
  } finally {
    await page.close();
  }
}

/** Total blocking time: each long task's time over 50 ms. */
export const totalBlockingTime = (longTasks: number[]) =>
  longTasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0);

/** Prints rows as aligned columns: the first left-aligned, the others right-aligned. */
export function printTable(table: string[][]) {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)));
  for (const row of table)
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
}
