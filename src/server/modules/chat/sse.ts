import type { FastifyReply } from 'fastify';
import { takeOverResponse } from '../../lib/streamed-response';

/** Often enough that proxies and load balancers with a 30-60 s idle timeout keep a slow reply's connection. */
export const SSE_HEARTBEAT_MS = 15_000;

/** An event as it goes out: the chat's own, or one shaped for another audience (the widget's). */
export interface SseEvent {
  event: string;
  data: unknown;
}

export interface SseChannel {
  send(event: SseEvent, id?: string): void;
  /** Writes already formatted event text (e.g. OpenAI's bare `data:` lines), batched like `send`. */
  write(text: string): void;
  end(): void;
  /** Aborts when the client goes away before the stream ended. */
  readonly gone: AbortSignal;
}

/**
 * Takes the response over from Fastify and opens a server-sent event stream on it. The headers go out at
 * once (by the next turn of the event loop), so the client knows the request was accepted before the model
 * writes anything.
 */
export function openSse(reply: FastifyReply, heartbeatMs = SSE_HEARTBEAT_MS): SseChannel {
  const res = takeOverResponse(reply, {
    'content-type': 'text/event-stream; charset=utf-8',
    // no-transform: a compressing proxy would hold events back; X-Accel-Buffering: nginx would too.
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });

  const writable = () => !res.writableEnded && !res.destroyed;
  const gone = new AbortController();
  const heartbeat = setInterval(() => {
    if (writable()) res.write(': heartbeat\n\n');
  }, heartbeatMs);
  res.on('close', () => {
    clearInterval(heartbeat);
    if (!res.writableFinished) gone.abort();
  });

  // Events sent in one turn of the event loop leave in one write of one string: under load the model's tokens
  // arrive in batches, and a write per token (even corked: a buffer each, gathered by writev) costs more than
  // relaying it. The headers leave with the first events, which callers send in the turn that opened the
  // stream, or alone on the next turn (flushHeaders now would cost a write of its own per stream).
  let pending = '';
  let scheduled = false;
  let started = false;
  const flush = () => {
    scheduled = false;
    const text = pending;
    pending = '';
    if ((text || !started) && writable()) res.write(text);
    started = true;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  schedule();

  const write = (text: string) => {
    if (!writable()) return;
    pending += text;
    schedule();
  };

  return {
    gone: gone.signal,
    write,
    send({ event, data }, id) {
      // The id lets a client that lost the stream resume after the last event it saw (Last-Event-ID).
      write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!writable()) return;
      res.end(pending);
      pending = '';
    },
  };
}
