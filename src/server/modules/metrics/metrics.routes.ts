import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError, notFound } from '../../lib/errors';
import type { Metrics } from './metrics.service';

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** METRICS_TOKEN; without it there are no metrics to scrape. */
  token: string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** GET /metrics in Prometheus' text format, for a scraper holding `Authorization: Bearer <METRICS_TOKEN>`. */
export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, { metrics, token }) => {
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw notFound('Route');
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compared as digests, in constant time, so the answer's timing tells nothing about the token.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      throw new AppError('UNAUTHENTICATED', 'Metrics need the bearer token set in METRICS_TOKEN.');
    }
    const { contentType, text } = await metrics.scrape();
    return reply.type(contentType).send(text);
  });
};
