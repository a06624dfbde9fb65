import { defineConfig, mergeConfig } from 'vitest/config';
import { SpecOrder } from './e2e/support/spec-order.ts';
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
      // Two spec files at a time, each with its own server and browser: most of a spec's time is spent waiting on
      // the browser and the server, so the run took 298 s instead of 551 s on two cores, all passing.
      maxWorkers: 2,
      // A worker keeps the server's modules it has imported for its next spec file, as the unit run does: each spec
      // starts its own app, so nothing is shared but the code.
      isolate: false,
      sequence: { sequencer: SpecOrder },
      // expect.poll waits as long as the specs' visible()/hidden() (e2e/support/browser.ts): its 1 s default
      // was shorter than a lazy screen's first paint on a loaded CI machine.
      expect: { poll: { timeout: 10_000 } },
    },
  }),
);
