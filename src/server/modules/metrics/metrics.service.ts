import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../../db/database';
import type { FinishedReply } from '../replies/replies.repository';
import { countFilesProcessing } from './metrics.repository';

export interface MetricsProbes {
  db: Db;
  /** Whether the Redis replies are shared through answers; absent without REDIS_URL, and so is the metric. */
  redisUp?: () => boolean;
}

/** How replies end, as the reply store sees them (ReplyStoreDeps.observe). */
export interface ReplyObserver {
  finished(reply: FinishedReply): void;
  interrupted(count: number): void;
}

// Model replies take seconds: the default buckets (5 ms to 10 s) would put most of them in the last one.
const FIRST_TOKEN_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];
const DURATION_BUCKETS = [0.5, 1, 2, 5, 10, 20, 40, 60, 120, 300];

/**
 * The instance's metrics in one registry of its own (apps in one test process never share counts): HTTP
 * requests, replies and their timings and tokens, open streams, the extraction queue, and whether the database
 * and Redis answer (read at each scrape), with Node's process metrics.
 */
export function createMetrics(probes: MetricsProbes) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'botty_' });
  const inFlight = new Set<FastifyReply>();

  const httpRequests = new Counter({
    name: 'botty_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const replies = new Counter({
    name: 'botty_replies_total',
    help: 'Chat replies ended, by outcome: complete, stopped, failed, or interrupted (their instance died).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const firstToken = new Histogram({
    name: 'botty_reply_first_token_seconds',
    help: 'Time from a reply being asked for to its first token.',
    buckets: FIRST_TOKEN_BUCKETS,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'botty_reply_duration_seconds',
    help: 'Time from a reply being asked for to its end.',
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'botty_reply_tokens_total',
    help: 'Tokens of chat replies as the model reported them, by kind: input or output.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'botty_open_streams',
    help: 'Responses streamed by hand (server-sent events, NDJSON) open on this instance.',
    registers: [registry],
    collect() {
      // A hijacked reply counts as sent from the start; its connection stays open until the stream ends.
      this.set([...inFlight].filter((reply) => reply.sent && !reply.raw.writableEnded).length);
    },
  });
  const databaseUp = new Gauge({
    name: 'botty_database_up',
    help: '1 when the database answered this scrape, else 0.',
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: 'botty_extraction_queue_depth',
    help: 'Uploaded files waiting for or in text extraction, across instances (absent while the database is down).',
    registers: [registry],
  });
  const { redisUp } = probes;
  if (redisUp) {
    new Gauge({
      name: 'botty_redis_up',
      help: '1 when the Redis shared between instances answers, 0 while it is away.',
      registers: [registry],
      collect() {
        this.set(redisUp() ? 1 : 0);
      },
    });
  }

  const observer: ReplyObserver = {
    finished(reply) {
      replies.inc({ outcome: reply.status });
      if (reply.firstTokenMs !== null) firstToken.observe(reply.firstTokenMs / 1000);
      duration.observe(reply.replyMs / 1000);
      if (reply.inputTokens !== null) tokens.inc({ kind: 'input' }, reply.inputTokens);
      if (reply.outputTokens !== null) tokens.inc({ kind: 'output' }, reply.outputTokens);
    },
    interrupted: (count) => void (count > 0 && replies.inc({ outcome: 'interrupted' }, count)),
  };

  /** Counts every request when its connection is done with it, which includes streams taken over by hand. */
  const plugin = fp(async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      inFlight.add(reply);
      reply.raw.once('close', () => {
        inFlight.delete(reply);
        httpRequests.inc({
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.raw.statusCode),
        });
      });
    });
  });

  async function scrape() {
    try {
      queueDepth.set(await countFilesProcessing(probes.db.kysely));
      databaseUp.set(1);
    } catch {
      queueDepth.reset();
      databaseUp.set(0);
    }
    return { contentType: registry.contentType, text: await registry.metrics() };
  }

  return { plugin, observer, scrape };
}

export type Metrics = ReturnType<typeof createMetrics>;
