import type { FastifyReply } from 'fastify';
import { takeOverResponse } from '../../lib/streamed-response';

/** Often enough that proxies and load balancers with a 30-60 s idle timeout keep a slow reply's connection. */
export const SSE_HEARTBEAT_MS = 15_000;

/** An event as it goes out: the chat's own, or one shaped for another audience (the widget's). */
export interface SseEvent {
  event: string;
  data: unknown;
}

/**
 * At most one write of streamed text in this time: a model writing a token every few milliseconds made a network
 * packet a token, and a task a token on the reading page's main thread (decision 0065). One frame at 60 Hz, the
 * most often the chat draws new text anyway.
 */
export const TEXT_GAP_MS = 16;

export interface SendOptions {
  /**
   * A piece of the reply's text: it may wait up to TEXT_GAP_MS after the last text that left, to leave with the
   * pieces after it. Anything else leaves on the next turn of the event loop, with whatever text waits before it.
   */
  text?: boolean;
}

export interface SseChannel {
  send(event: SseEvent, id?: string, options?: SendOptions): void;
  /** Writes already formatted event text (e.g. OpenAI's bare `data:` lines), batched like `send`. */
  write(text: string, options?: SendOptions): void;
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
  // The first text leaves at once (no first token is held back), later text no sooner than TEXT_GAP_MS after it.
  let pending = '';
  let turn: NodeJS.Immediate | undefined;
  let gap: NodeJS.Timeout | undefined;
  let started = false;
  let textLeftAt = Number.NEGATIVE_INFINITY;
  let textPending = false;
  const flush = () => {
    clearImmediate(turn);
    clearTimeout(gap);
    turn = gap = undefined;
    const text = pending;
    pending = '';
    if (textPending) textLeftAt = performance.now();
    textPending = false;
    if ((text || !started) && writable()) res.write(text);
    started = true;
  };
  const schedule = (options?: SendOptions) => {
    if (turn) return;
    const wait = options?.text ? textLeftAt + TEXT_GAP_MS - performance.now() : 0;
    if (wait < 1) turn = setImmediate(flush);
    else gap ??= setTimeout(gapEnded, wait);
  };
  // Timers count from the time the event loop read at the start of its turn: after a busy turn they end early.
  const gapEnded = () => {
    gap = undefined;
    schedule({ text: true });
  };
  schedule();

  const write = (text: string, options?: SendOptions) => {
    if (!writable()) return;
    pending += text;
    textPending ||= Boolean(options?.text);
    schedule(options);
  };

  return {
    gone: gone.signal,
    write,
    send({ event, data }, id, options) {
      // The id lets a client that lost the stream resume after the last event it saw (Last-Event-ID).
      write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, options);
    },
    end() {
      clearInterval(heartbeat);
      clearImmediate(turn);
      clearTimeout(gap);
      if (!writable()) return;
      res.end(pending);
      pending = '';
    },
  };
}
