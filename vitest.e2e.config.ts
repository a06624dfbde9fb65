import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.base.ts';

// End-to-end specs: the built client served by the real server, driven by the system Chromium.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['e2e/**/*.spec.ts'],
      // Specs that run axe on every screen at two widths take most of a minute on a loaded 2-core machine.
      testTimeout: 120_000,
      hookTimeout: 60_000,
      fileParallelism: false,
      // expect.poll waits as long as the specs' visible()/hidden() (e2e/support/browser.ts): its 1 s default
      // was shorter than a lazy screen's first paint on a loaded CI machine.
      expect: { poll: { timeout: 10_000 } },
    },
  }),
);
