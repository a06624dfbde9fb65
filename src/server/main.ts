import 'dotenv/config';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest } from './db/migrate';
import { openDatabase } from './db/dialect';
import { ensureBootstrapAdmin } from './modules/auth/bootstrap-admin.service';
import { systemClock } from './lib/clock';

/** What closing gets after draining: the replies still running are stopped and save what they have. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  let warn = (err: Error) => console.warn(`database connection lost: ${err.message}`);
  let warnUpkeep = (reason: string) => console.warn(`background SQLite upkeep stopped: ${reason}`);
  const db = openDatabase(config.database, {
    onConnectionError: (err) => warn(err),
    upkeepInBackground: true,
    onUpkeepLost: (reason) => warnUpkeep(reason),
  });
  await migrateToLatest(db);
  const app = await buildApp({
    config,
    db,
    prettyLogs: process.stdout.isTTY,
    fileJobs: { warmWorker: true },
    warmKnowledge: true,
  });
  warn = (err) => app.log.warn({ err }, 'database connection lost; the pool reconnects on demand');
  warnUpkeep = (reason) => app.log.warn({ reason }, 'background SQLite upkeep stopped; SQLite checkpoints itself');
  if (config.admin) {
    await ensureBootstrapAdmin({ db, clock: systemClock }, config.admin);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'draining, then shutting down');
    // Draining is bounded, and so is closing after it: a model call that never ends must not hold the process.
    const grace = setTimeout(() => {
      app.log.warn('requests still running after the grace period; exiting anyway');
      process.exit(0);
    }, config.shutdownDrainMs + SHUTDOWN_GRACE_MS);
    grace.unref();
    await app.drain(config.shutdownDrainMs);
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: config.database.kind, llm: config.llm.provider, emailVerification: config.emailVerificationRequired },
    `Botty is ready on ${config.appUrl}`,
  );
}

main().catch((err: unknown) => {
  // A ConfigError found after loading (a SECRET_KEY that opens no stored secret) is one line too.
  if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
  else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
