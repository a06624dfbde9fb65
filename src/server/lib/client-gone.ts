import type { FastifyReply } from 'fastify';

/** Aborts when the client goes away (or cancels) before the answer was sent, so its model call can stop. */
export function abortedWhenGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
