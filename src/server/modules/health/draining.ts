import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** True from `drain` on: readiness answers 503 and new requests are refused. */
    readonly draining: boolean;
    /**
     * Takes the instance out of service before it stops (SIGTERM): readiness answers 503 at once, so the load
     * balancer sends no more, and new requests get 503, while the replies running here get up to `graceMs` to
     * finish. Closing the app afterwards stops the rest, each saving what it has and ending its readers' streams.
     */
    drain(graceMs: number): Promise<void>;
  }
}

/** How often draining looks whether the running replies have ended. */
const DRAIN_POLL_MS = 100;

export interface DrainingOptions {
  /** Replies being written on this instance. */
  runningReplies(): number;
}

export const drainingPlugin = fp(async (app: FastifyInstance, { runningReplies }: DrainingOptions) => {
  let draining = false;
  app.decorate('draining', {
    getter: () => draining,
  });
  app.decorate('drain', async (graceMs: number) => {
    draining = true;
    const deadline = Date.now() + graceMs;
    while (runningReplies() > 0 && Date.now() < deadline) await sleep(DRAIN_POLL_MS);
  });
  // Requests already running (replies, their readers) go on; a new one goes to another instance. The liveness
  // and readiness checks still answer, so the balancer sees why.
  app.addHook('onRequest', async (request, reply) => {
    if (!draining || request.url.startsWith('/api/health')) return;
    reply.header('connection', 'close');
    throw new AppError('UNAVAILABLE', 'This server is shutting down; try again.');
  });
});
