import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';
import type { AxeResults, default as axe } from 'axe-core';
import { type Browser, type BrowserContext, type Locator, type Page, type Route } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../../tests/support/chromium';
import type { FakeLlm } from '../../tests/support/fake-llm';
import { signUp, type TestApp } from '../../tests/support/test-app';

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/** A fresh context (own storage) whose page errors and console errors fail the test. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
) {
  const context: BrowserContext = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The spec's request helper logs failed calls on purpose; anything else is a bug.
    if (msg.type() === 'error' && !/^\d{3}: |Failed to load resource/.test(msg.text()))
      problems.push(`console: ${msg.text()}`);
  });
  return {
    page,
    context,
    problems,
    async close() {
      await context.close();
      expect(problems, 'errors in the page').toEqual([]);
    },
  };
}

/** A fresh user with a signed-in page (token in localStorage, as "Remember me" leaves it). */
export async function signedInPage(
  browser: Browser,
  t: TestApp,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
) {
  const account = await signUp(t);
  const session = await newPage(browser, t.url, viewport);
  await session.page.goto('/login');
  // The token goes in once the login page (a lazy chunk) is up and has found nobody signed in, so the page
  // the test opens next is the one that checks it.
  await visible(session.page.getByRole('button', { name: 'Sign in' }));
  await session.page.evaluate((token) => localStorage.setItem('authToken', token), account.token);
  return { ...session, token: account.token };
}

export const visible = (locator: Locator, timeout = 10_000) =>
  expect.poll(() => locator.first().isVisible(), { timeout }).toBe(true);
export const hidden = (locator: Locator, timeout = 10_000) => expect.poll(() => locator.count(), { timeout }).toBe(0);

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's results for the current page. A page without frames is checked by axe in the page itself, put there
 * once per document: `@axe-core/playwright` evaluates axe's half a megabyte of source twice for every check and by
 * default opens a blank page to gather the results, together most of a check's 1.3 s on a loaded two-core machine.
 * A page with frames (the widget on a host site, another origin) is checked frame by frame by the library.
 */
async function axeResults(page: Page): Promise<AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
      }),
    AXE_TAGS,
  );
}

/** axe-core on the current page: nothing serious or critical. */
export async function expectAccessible(page: Page, label: string) {
  const results = await axeResults(page);
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(bad, `accessibility of ${label}`).toEqual([]);
  if ((page.viewportSize()?.width ?? Infinity) < 768)
    expect(await smallTouchTargets(page), `${label}: buttons under 44 px`).toEqual([]);
}

/**
 * design.md: touch targets at least 44 px on phones. Shown buttons (checkboxes and switches included) smaller
 * than that, named, with their size; a control's own <label> is part of its target.
 */
function smallTouchTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLButtonElement>('button, [role="button"]')].flatMap((element) => {
      const own = element.getBoundingClientRect();
      if (own.width === 0 || own.height === 0 || getComputedStyle(element).visibility === 'hidden') return [];
      const boxes = [own, ...[...(element.labels ?? [])].map((label) => label.getBoundingClientRect())];
      if (boxes.some((box) => box.width >= 43.5 && box.height >= 43.5)) return [];
      const name =
        element.getAttribute('aria-label') ?? (element.textContent?.trim() || element.labels?.[0]?.textContent?.trim());
      return [`${name} ${own.width}×${own.height}`];
    }),
  );
}

/** Screenshots land in screenshots/ (ignored by git) for a person to look at. */
export async function snap(page: Page, name: string) {
  mkdirSync('screenshots', { recursive: true });
  const path = `screenshots/${name}.png`;
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (!viewport || height <= viewport.height) return void (await page.screenshot({ path }));
  // The whole page by a window as tall as it, not Playwright's full-page capture: that lays the page out in a 1×1
  // window for a moment (a slow machine's app answered it: a chat following a reply lost its place) and drew the
  // chat's scrolled message list blank.
  // The page's scroll is put back after: an open menu locks it, and the test goes on where it was.
  const scrolled = await page.evaluate(() => [window.scrollX, window.scrollY] as const);
  await page.setViewportSize({ width: viewport.width, height });
  try {
    await page.screenshot({ path });
  } finally {
    await page.setViewportSize(viewport);
    await page.evaluate(([x, y]) => window.scrollTo(x, y), scrolled);
  }
}

/** Switches the system colour scheme and waits for the theme's colour transitions to finish before anything reads colours. */
export async function emulateColorScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
  await expect
    .poll(() =>
      page.evaluate(
        (dark) => document.documentElement.classList.contains('dark') === dark && document.getAnimations().length === 0,
        scheme === 'dark',
      ),
    )
    .toBe(true);
}

/** A toast with exactly this text, in the notifications region. */
export const toastWith = (page: Page, text: string) =>
  page.getByRole('region', { name: /notifications/i }).getByText(text, { exact: true });

interface SuiteOptions {
  /** Signs up the first account, which administers the instance, so the tests sign up ordinary users. */
  owner?: boolean;
}

/**
 * Declares a spec file's app (from `start`) and browser: hooks start them before its tests and close them
 * after, and the handle reads them from then on (`suite.t`, `suite.browser`, and `suite.fake` when the app
 * has a fake model). Resources a spec adds are closed by its own `afterAll`; one registered before this
 * call runs after the app has closed.
 */
export function appInBrowser<A extends TestApp & { fake?: FakeLlm }>(
  start: () => Promise<A>,
  { owner = true }: SuiteOptions = {},
) {
  let app: A | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    app = await start();
    browser = await launchChromium();
    if (owner) await signUp(app, { username: 'instance_owner' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite starts in beforeAll');
    return value;
  };
  return {
    get t() {
      return started(app);
    },
    get browser() {
      return started(browser);
    },
    get fake() {
      return started(started(app).fake);
    },
  };
}

/** The page's `method` requests to `url` go to `handle`; its other requests to `url` go to the server unchanged. */
export const routeRequests = (page: Page, url: string, method: string, handle: (route: Route) => Promise<void>) =>
  page.route(url, (route) => (route.request().method() === method ? handle(route) : route.continue()));

/**
 * Holds the page's requests matching `url` (and `method`) until `release` is called, so a test can see what the
 * page shows while the server works; they then go on to the server unchanged.
 */
export async function holdRequests(page: Page, url: string, method: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await routeRequests(page, url, method, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
