import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.base.ts';

// Unit and API integration tests: real SQLite files, the real PostgreSQL when TEST_DATABASE_URL is set.
// Component tests (*.test.tsx) run the client's screens in jsdom, with the same console.error guard.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      testTimeout: 30_000,
      // Most files wait on PostgreSQL, Redis, loopback servers and timers rather than on the CPU: three at a time
      // on two cores took the unit run from 637 s to 308 s (vitest's default here is one, cores minus one).
      maxWorkers: 3,
      hookTimeout: 30_000,
      setupFiles: ['tests/support/fail-on-console-error.ts'],
      projects: [
        {
          extends: true,
          test: {
            name: 'node',
            include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
            // The server's build, for the tests that run it as `npm start` does (tests/support/server-process.ts).
            globalSetup: ['tests/support/build-server.ts'],
            // Every file builds its own app, database and servers, so a worker keeps the modules it has imported
            // for the next file instead of importing the server again (import was 277 of 651 test-seconds; the
            // run went from 341 s to 234 s on two cores).
            isolate: false,
          },
        },
        {
          extends: true,
          test: {
            name: 'dom',
            include: ['src/client/**/*.test.tsx'],
            environment: 'jsdom',
            // The fake server stands in for fetch one test at a time.
            unstubGlobals: true,
            setupFiles: ['tests/support/dom-setup.ts'],
            isolate: false,
          },
        },
      ],
    },
  }),
);
