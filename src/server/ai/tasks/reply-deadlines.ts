import { CHAT_ERRORS } from './model-errors';

export interface ChatTimeouts {
  /** From the request to the model's first output: a model that never starts is down or overloaded. */
  firstTokenMs: number;
  /** The whole reply. Local models on a CPU write slowly, so this is generous; it bounds what one reply holds. */
  totalMs: number;
}

/**
 * The time limits of one reply and the signal that ends its model requests: aborted when a limit passes or the
 * caller's `callerSignal` is. `end()` must be called when the reply is over.
 */
export type ReplyDeadlines = ReturnType<typeof startDeadlines>;

export function startDeadlines(timeouts: ChatTimeouts, callerSignal: AbortSignal) {
  // Also aborted on the way out of the provider's stream, so its request ends even if the caller stops early.
  // Botty's own reader has nothing left open by then, and its finished connections are kept for reuse.
  const expired = new AbortController();
  let timedOut: string | null = null;
  const expireWith = (message: string) => () => {
    timedOut = message;
    expired.abort();
  };
  let firstToken: NodeJS.Timeout | undefined = setTimeout(
    expireWith(CHAT_ERRORS.firstTokenTimeout),
    timeouts.firstTokenMs,
  );
  const firstTokenDeadline = performance.now() + timeouts.firstTokenMs;
  const started = () => {
    if (firstToken) clearTimeout(firstToken);
    firstToken = undefined;
  };
  let totalLeft = timeouts.totalMs;
  let totalSince = performance.now();
  let total: NodeJS.Timeout | undefined = setTimeout(expireWith(CHAT_ERRORS.totalTimeout), totalLeft);
  let holds = 0;
  // The caller's stop ends the model's request too. A listener rather than AbortSignal.any, which in Node 20
  // costs ~15 µs a reply and keeps weak references for the garbage collector to trace.
  const stop = () => expired.abort(callerSignal.reason);
  if (callerSignal.aborted) stop();
  else callerSignal.addEventListener('abort', stop, { once: true });

  return {
    signal: expired.signal,
    /** The user's message for the time limit that passed, if one did. */
    timedOut: () => timedOut,
    /** The model has started answering: the first-token limit no longer applies. */
    started,
    /** Whether a pause of `delayMs` would be cut short by the first-token limit. */
    outlastsFirstToken: (delayMs: number) =>
      firstToken !== undefined && performance.now() + delayMs >= firstTokenDeadline,
    /**
     * Stops the whole-reply limit until the returned function is called: time a person spends deciding whether
     * a tool may run is theirs, not the model's (a tool call has already started the reply, so the first-token
     * limit is over by then).
     */
    hold(): () => void {
      if (holds++ === 0 && total) {
        clearTimeout(total);
        total = undefined;
        totalLeft -= performance.now() - totalSince;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--holds > 0 || expired.signal.aborted) return;
        totalSince = performance.now();
        total = setTimeout(expireWith(CHAT_ERRORS.totalTimeout), Math.max(0, totalLeft));
      };
    },
    /** Clears the timers; `abortRequest` also ends the model's request (see `expired`). */
    end(abortRequest: boolean) {
      started();
      holds = Infinity;
      clearTimeout(total);
      callerSignal.removeEventListener('abort', stop);
      if (abortRequest) expired.abort();
    },
  };
}
