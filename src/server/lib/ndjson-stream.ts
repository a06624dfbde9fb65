import type { FastifyReply } from 'fastify';
import { abortedWhenGone } from './client-gone';
import { takeOverResponse } from './streamed-response';

export interface NdjsonStream<T> {
  send(item: T): void;
  end(): void;
  /** Aborts when the client goes away (or cancels) before the stream ended. */
  readonly gone: AbortSignal;
}

/**
 * Takes the response over and streams one JSON object per line (application/x-ndjson), each written as soon as
 * it is sent, for results that arrive one by one (training answers). The headers leave at once, so the client
 * knows the request was accepted before the first result.
 */
export function openNdjson<T>(reply: FastifyReply): NdjsonStream<T> {
  const res = takeOverResponse(reply, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const writable = () => !res.writableEnded && !res.destroyed;
  return {
    gone: abortedWhenGone(reply),
    send(item) {
      if (writable()) res.write(`${JSON.stringify(item)}\n`);
    },
    end() {
      if (writable()) res.end();
    },
  };
}
