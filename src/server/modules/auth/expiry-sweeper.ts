import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { deleteExpiredEmailTokens } from './email-tokens.repository';
import { deleteExpiredSessions } from './sessions.repository';

export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

interface SweeperDeps {
  db: Db;
  clock: Clock;
}

/** Drops the sessions and e-mail links past their expiry; lookups already ignore them, this keeps the tables small. */
export async function purgeExpired(deps: SweeperDeps) {
  const now = isoNow(deps.clock);
  return {
    sessions: await deleteExpiredSessions(deps.db.kysely, now),
    emailTokens: await deleteExpiredEmailTokens(deps.db.kysely, now),
  };
}

/**
 * Purges once the server is ready, then every `intervalMs`. The timer is unref'd so it never keeps the process
 * alive, and closing the app waits for a running purge instead of pulling the database from under it.
 */
export const expirySweeperPlugin = fp(
  async (app: FastifyInstance, { deps, intervalMs }: { deps: SweeperDeps; intervalMs: number }) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const sweep = () => {
      running = running.then(async () => {
        try {
          const purged = await purgeExpired(deps);
          if (purged.sessions || purged.emailTokens) app.log.info(purged, 'purged expired sessions and e-mail links');
        } catch (err) {
          app.log.warn({ err }, 'could not purge expired sessions and e-mail links; trying again later');
        }
      });
    };
    app.addHook('onReady', async () => {
      sweep();
      timer = setInterval(sweep, intervalMs).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
);
