import type { ChatStreamEvent } from '@shared/contracts/chat';
import { systemTimers, type Timers } from '../../lib/timers';

/** One event of a reply with its id, `${replyId}-${seq}` (seq from 1), sent as the SSE `id:` field. */
export interface ReplyEventEntry {
  id: string;
  event: ChatStreamEvent;
}

export interface ReplyEventWriter {
  /** Records the event and returns its id at once; storing it elsewhere (Redis) happens in batches. */
  append(event: ChatStreamEvent): string;
  /** After the terminal event (or when the reply is abandoned): followers end, the log expires later. */
  end(): void;
}

export interface FollowOptions {
  /** The last event id the client saw (`Last-Event-ID`); without it, the reply is followed from the start. */
  after?: string;
  signal: AbortSignal;
}

/**
 * The events of running replies, kept so that a client that lost its stream (network blip, reload, another
 * instance behind the balancer) resumes where it was, with no gap and no duplicate.
 */
export interface ReplyEvents {
  open(conversationId: number, replyId: string): ReplyEventWriter;
  /**
   * The events after `after` of the reply it names (or of the conversation's latest reply), then the live
   * ones until `done` or `error`. Empty when no such reply is running or recorded (within `keepMs` of its
   * end); ends early when the signal aborts or, across instances, when the reply cannot be followed any more.
   */
  follow(conversationId: number, options: FollowOptions): AsyncIterable<ReplyEventEntry>;
  /** The conversation's latest reply, running or recorded. */
  current(conversationId: number): Promise<{ replyId: string } | null>;
  /**
   * Ends the events of a reply whose instance died (the sweeper marked it interrupted) with `event`, so its
   * followers on every instance end at once instead of waiting for it. Nothing when the reply already ended,
   * or runs here.
   */
  interrupt(conversationId: number, replyId: string, event: ChatStreamEvent): Promise<void>;
  close(): Promise<void>;
}

/** A reconnection this long after a reply ended still finds its events. */
export const REPLY_EVENTS_KEEP_MS = 10 * 60_000;

export const isTerminalEvent = (event: ChatStreamEvent) => event.event === 'done' || event.event === 'error';

/** Null for an id this module did not make; routes answer such a `Last-Event-ID` with 400. */
export function parseReplyEventId(id: string): { replyId: string; seq: number } | null {
  const dash = id.lastIndexOf('-');
  const seq = id.slice(dash + 1);
  if (dash <= 0 || !/^(0|[1-9]\d{0,14})$/.test(seq)) return null;
  return { replyId: id.slice(0, dash), seq: Number(seq) };
}

/** The events of one reply in memory, and its followers on this instance. */
export class ReplyLog {
  /** By seq - 1; null where `dropDeltas` removed a delta. */
  readonly events: (ChatStreamEvent | null)[] = [];
  ended = false;
  private waiters: (() => void)[] = [];
  /** Clients following the reply live, which get every delta; the deltas are dropped once they are done. */
  private following = 0;
  private dropWhenIdle = false;

  constructor(
    readonly conversationId: number,
    readonly replyId: string,
  ) {}

  append(event: ChatStreamEvent): string {
    const seq = this.events.push(event);
    if (this.waiters.length > 0) this.wake();
    return `${this.replyId}-${seq}`;
  }

  end() {
    this.ended = true;
    this.wake();
  }

  /**
   * Once the reply has ended, its text deltas are not needed (200 tokens are ~25 KiB, kept for keepMs): a
   * client that reconnects after the end gets the other events it missed, and `done` brings the saved reply
   * whole, which replaces what it had streamed (after `error` it fetches the conversation again).
   */
  dropDeltas() {
    this.dropWhenIdle = this.following > 0;
    if (this.dropWhenIdle) return;
    for (const [i, event] of this.events.entries()) if (event?.event === 'delta') this.events[i] = null;
  }

  async *follow(afterSeq: number, signal: AbortSignal): AsyncGenerator<ReplyEventEntry> {
    let wait: (() => void) | undefined;
    const onAbort = () => wait?.();
    signal.addEventListener('abort', onAbort, { once: true });
    this.following += 1;
    try {
      let seq = afterSeq;
      while (!signal.aborted) {
        while (seq < this.events.length) {
          const event = this.events[seq++];
          if (!event) continue;
          yield { id: `${this.replyId}-${seq}`, event };
          if (isTerminalEvent(event) || signal.aborted) return;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          wait = resolve;
          this.waiters.push(resolve);
        });
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.following -= 1;
      if (this.dropWhenIdle) this.dropDeltas();
    }
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The reply logs of this instance, each forgotten `keepMs` after its end. */
export class ReplyLogs {
  private readonly byReply = new Map<string, ReplyLog>();
  private readonly latest = new Map<number, ReplyLog>();

  constructor(
    private readonly keepMs: number,
    private readonly timers: Timers = systemTimers,
  ) {}

  open(conversationId: number, replyId: string): ReplyLog {
    const log = new ReplyLog(conversationId, replyId);
    this.byReply.set(`${conversationId}:${replyId}`, log);
    this.latest.set(conversationId, log);
    return log;
  }

  end(log: ReplyLog) {
    log.end();
    this.timers
      .setTimeout(() => {
        if (this.byReply.get(`${log.conversationId}:${log.replyId}`) === log) {
          this.byReply.delete(`${log.conversationId}:${log.replyId}`);
        }
        if (this.latest.get(log.conversationId) === log) this.latest.delete(log.conversationId);
      }, this.keepMs)
      .unref();
  }

  /** The named reply of the conversation, or its latest one. */
  get(conversationId: number, replyId?: string): ReplyLog | undefined {
    return replyId === undefined ? this.latest.get(conversationId) : this.byReply.get(`${conversationId}:${replyId}`);
  }
}

/**
 * Reply events within one instance: what a single server without Redis needs. `timers` forget each reply
 * `keepMs` after its end; a test passes its own to move that time by hand.
 */
export function inProcessReplyEvents(options: { keepMs?: number; timers?: Timers } = {}): ReplyEvents {
  const logs = new ReplyLogs(options.keepMs ?? REPLY_EVENTS_KEEP_MS, options.timers);
  return {
    open(conversationId, replyId) {
      const log = logs.open(conversationId, replyId);
      return {
        append: (event) => log.append(event),
        end: () => {
          logs.end(log);
          log.dropDeltas();
        },
      };
    },
    async *follow(conversationId, { after, signal }) {
      const position = after === undefined ? undefined : parseReplyEventId(after);
      if (position === null) return;
      yield* logs.get(conversationId, position?.replyId)?.follow(position?.seq ?? 0, signal) ?? [];
    },
    async current(conversationId) {
      const log = logs.get(conversationId);
      return log ? { replyId: log.replyId } : null;
    },
    // Every reply followed here was written by this process: the process that died took its followers along.
    async interrupt() {},
    async close() {},
  };
}
