import { fileURLToPath } from 'node:url';
import { makeBuilds } from '../../scripts/builds';

/** Vitest's global setup: the server's build, once before any test file runs, for the tests that start it. */
export default async function buildServer() {
  await makeBuilds(fileURLToPath(new URL('../..', import.meta.url)), ['server']);
}
