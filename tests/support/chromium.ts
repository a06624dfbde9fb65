import { chromium } from 'playwright-core';

/** The system Chromium (Debian's package), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as the end-to-end tests and the browser benches run it:
 * - off the network this machine does not have (background networking, QUIC, component updates, sync);
 * - without the browser's own top-chrome WebUI pages. Chromium 156 loads its omnibox popup (a page of its own, in
 *   a renderer of its own) for every new tab, headless too: measured in a trace of one conversation opening, that
 *   renderer's main thread was busy 1.3–1.8 s, a whole core of the two this machine has, beside the app's page.
 *   Its AI-mode popup (chrome://omnibox-popup.top-chrome/omnibox_popup_ai) came back with every new page under
 *   the first two switches, ~0.8 s of a core each time; switched off too, the end-to-end run took 526 s instead
 *   of 615 s on one machine (session 37).
 */
export const launchChromium = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  });
