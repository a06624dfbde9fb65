import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Embeddings } from './embeddings';
import { warmKnowledgeVectors } from './vector-index';

/**
 * Loads the bots' knowledge vectors into the instance's memory once it is ready (decision 0048), in the background:
 * the server does, so no one's first question after a start or a deploy waits seconds for them; embedded apps
 * (tests) leave it off. `stop` ends it between two batches, before the database closes.
 */
export function knowledgeWarmUp(deps: { db: Db; embeddings: Embeddings; log: FastifyBaseLogger }) {
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  return {
    start() {
      running = (async () => {
        const model = await deps.embeddings.current();
        if (!model) return;
        const started = performance.now();
        const bots = await warmKnowledgeVectors(deps.db, model, stopping.signal);
        if (bots > 0) deps.log.info({ bots, ms: Math.round(performance.now() - started) }, 'knowledge vectors loaded');
      })().catch((err: unknown) =>
        deps.log.warn(
          { err },
          'could not load the knowledge vectors ahead; each bot loads them with its first question',
        ),
      );
    },
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
