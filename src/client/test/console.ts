// The console.error guard lives with the tests' other support; screens' tests reach it from here, by @/.
export { allowConsoleError } from '../../../tests/support/fail-on-console-error';
