import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { redisFallbackLog, subscribeChannel } from '../../lib/redis';

/** What a person answered to a tool call (the database records it first, see chat/tool-approvals.service.ts). */
export type ToolCallAnswer = 'approved' | 'denied';

/**
 * The tool calls that replies written on this instance wait on, and the way an answer reaches the instance that
 * waits: directly when it is this one, else published through Redis to every instance (as Stop is). Without
 * Redis, every reply runs here. A message lost while Redis is away is no loss: the waiting reply also reads the
 * database now and then (decision 0038).
 */
export interface ToolApprovalWaiters {
  /** How long a call waits for its answer (TOOL_APPROVAL_TIMEOUT_MS). */
  timeoutMs: number;
  /** Calls `onAnswer` when the call's answer is delivered; the returned function stops listening. */
  listen(conversationId: number, callId: string, onAnswer: (answer: ToolCallAnswer) => void): () => void;
  /** Hands a recorded answer to the instance whose reply waits for it. */
  deliver(conversationId: number, callId: string, answer: ToolCallAnswer): Promise<void>;
  close(): void;
}

const keyOf = (conversationId: number, callId: string) => `${conversationId}:${callId}`;

export async function toolApprovalWaiters(options: {
  timeoutMs: number;
  log: FastifyBaseLogger;
  redis?: Redis;
  keyPrefix?: string;
}): Promise<ToolApprovalWaiters> {
  const { redis, log, keyPrefix = 'botty:' } = options;
  const waiting = new Map<string, (answer: ToolCallAnswer) => void>();
  const channel = `${keyPrefix}tool-approval`;
  const fallback = redisFallbackLog(log, 'tool approvals');
  const hear = (key: string, answer: ToolCallAnswer) => waiting.get(key)?.(answer);
  const subscriber =
    redis &&
    (await subscribeChannel(redis, {
      log,
      name: 'tool-approval',
      channel,
      onMessage(message) {
        const { key, answer } = JSON.parse(message) as { key: string; answer: ToolCallAnswer };
        hear(key, answer);
      },
      onError: fallback.failed,
    }));
  return {
    timeoutMs: options.timeoutMs,
    listen(conversationId, callId, onAnswer) {
      const key = keyOf(conversationId, callId);
      waiting.set(key, onAnswer);
      return () => {
        if (waiting.get(key) === onAnswer) waiting.delete(key);
      };
    },
    async deliver(conversationId, callId, answer) {
      const key = keyOf(conversationId, callId);
      if (waiting.has(key) || !redis) return hear(key, answer);
      try {
        await redis.publish(channel, JSON.stringify({ key, answer }));
        fallback.succeeded();
      } catch (err) {
        fallback.failed(err);
      }
    },
    close: () => subscriber?.disconnect(),
  };
}
