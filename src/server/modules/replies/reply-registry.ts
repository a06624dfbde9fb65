import { SHUTDOWN_REASON } from './reply-lifecycle';

/** One running reply: its stop signal, and the release of its conversation when it is over. */
export interface ReplyClaim {
  signal: AbortSignal;
  stop(): void;
  release(): void;
}

/**
 * Which conversations have a reply being written, so a stop request reaches it and two replies never
 * interleave in one conversation. Asynchronous so that a shared implementation (Redis pub/sub and a lock,
 * when several instances serve one database) can replace the in-process one without touching callers.
 */
export interface ReplyRegistry {
  /** Null when a reply is already running in that conversation. */
  claim(conversationId: number): Promise<ReplyClaim | null>;
  /**
   * Stops the conversation's running reply; false when none was running, `unreachable` when it may run on an
   * instance this one cannot reach (Redis away).
   */
  stop(conversationId: number): Promise<boolean | 'unreachable'>;
  /**
   * Frees a conversation whose reply the sweeper marked interrupted (its instance died), so a new message is
   * taken at once rather than when the dead instance's lock expires. A reply running here is left alone.
   */
  release(conversationId: number): Promise<void>;
  /** How many replies this instance is writing (draining waits for them). */
  running(): number;
  /** Stops every running reply, e.g. on shutdown, so each saves what it has and ends its response. */
  stopAll(): Promise<void>;
  /** Lets go of what the registry holds open (connections, timers); after `stopAll` on shutdown. */
  close(): Promise<void>;
}

export function inProcessReplyRegistry(): ReplyRegistry {
  const running = new Map<number, AbortController>();
  return {
    async claim(conversationId) {
      if (running.has(conversationId)) return null;
      const controller = new AbortController();
      running.set(conversationId, controller);
      return {
        signal: controller.signal,
        stop: () => controller.abort(),
        release: () => {
          if (running.get(conversationId) === controller) running.delete(conversationId);
        },
      };
    },
    async stop(conversationId) {
      const controller = running.get(conversationId);
      if (!controller || controller.signal.aborted) return false;
      controller.abort();
      return true;
    },
    // Every reply of this registry runs in this process, whose own end frees its conversation.
    async release() {},
    running: () => running.size,
    async stopAll() {
      for (const controller of running.values()) controller.abort(SHUTDOWN_REASON);
    },
    async close() {},
  };
}
