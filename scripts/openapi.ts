import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/dialect';
import { migrateToLatest } from '../src/server/db/migrate';

/*
 * `tsx scripts/openapi.ts` prints the OpenAPI document the server serves at /api/openapi.json;
 * `tsx scripts/openapi.ts --lint` lints it with Redocly's recommended rules (redocly.yaml), offline (decision 0040).
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** The document comes from the route schemas; the app only needs a migrated database to start (in memory here). */
async function openapiDocument(): Promise<unknown> {
  const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
  await migrateToLatest(db);
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    db,
    fileJobs: { start: false },
    sweepIntervalMs: 24 * 60 * 60 * 1000,
  });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

function lint(document: string) {
  // redocly reads files only: the document goes to a directory of its own, removed afterwards.
  const dir = mkdtempSync(join(tmpdir(), 'botty-openapi-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), document);
    execFileSync(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', '--config', join(root, 'redocly.yaml'), join(dir, 'openapi.json')],
      { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
  } catch {
    // redocly printed the problems.
    process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const document = `${JSON.stringify(await openapiDocument(), null, 2)}\n`;
if (process.argv.includes('--lint')) lint(document);
else process.stdout.write(document);
