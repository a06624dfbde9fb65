import { APICallError, RetryError, streamText, type ModelMessage } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Ai } from '../providers';

export interface ChatTimeouts {
  /** From the request to the model's first output: a model that never starts is down or overloaded. */
  firstTokenMs: number;
  /** The whole reply. Local models on a CPU write slowly, so this is generous; it bounds what one reply holds. */
  totalMs: number;
}

export const DEFAULT_CHAT_TIMEOUTS: ChatTimeouts = { firstTokenMs: 30_000, totalMs: 120_000 };

/** What the user reads when a reply fails: what happened and, where it is the operator's to fix, where to look. */
export const CHAT_ERRORS = {
  unreachable: 'The language model is not reachable. Check LLM_BASE_URL and that the model server is running.',
  apiKey: 'The language model rejected the API key.',
  modelNotFound: (modelId: string | null) => `Model not found: ${modelId ?? 'unknown'}. Check LLM_MODEL.`,
  busy: 'The language model is busy right now. Please try again in a moment.',
  status: (status: number) => `The language model failed to answer (error ${status}). Please try again.`,
  unknown: 'The language model failed to answer. Please try again.',
  firstTokenTimeout: 'The language model did not start answering in time. Please try again.',
  totalTimeout: 'The language model took too long, so the reply was cut short.',
  empty: 'The language model sent an empty reply. Please try again.',
} as const;

/** A failed reply, with a message fit for the user. */
export class ChatReplyError extends Error {
  override name = 'ChatReplyError';
}

export function describeModelError(error: unknown, modelId: string | null): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError, modelId);
  if (!APICallError.isInstance(error)) return CHAT_ERRORS.unknown;
  // The SDK reports refused connections, DNS failures and resets as API call errors without a status.
  if (error.statusCode === undefined) return CHAT_ERRORS.unreachable;
  if (error.statusCode === 401 || error.statusCode === 403) return CHAT_ERRORS.apiKey;
  if (error.statusCode === 404) return CHAT_ERRORS.modelNotFound(modelId);
  if (error.statusCode === 429) return CHAT_ERRORS.busy;
  return CHAT_ERRORS.status(error.statusCode);
}

/** Enough to diagnose; never the request (prompt, history) nor its headers (the API key). */
function errorSummary(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = error.cause as { code?: unknown } | undefined;
  return {
    name: error.name,
    message: error.message,
    statusCode: APICallError.isInstance(error) ? error.statusCode : undefined,
    cause: typeof cause?.code === 'string' ? cause.code : undefined,
  };
}

export const offlineReplyText = (botName: string) =>
  [
    `I'm ${botName}, but no language model is connected to this Botty server yet, so I can't answer your message. This is an automatic reply.`,
    "To connect one, set **LLM_BASE_URL** and **LLM_MODEL** in the server's environment and restart it. For a local Ollama: `LLM_BASE_URL=http://127.0.0.1:11434/v1` and `LLM_MODEL=llama3.2`.",
    'OpenAI and Anthropic work too: set **LLM_PROVIDER** (`openai` or `anthropic`) and **LLM_API_KEY**.',
  ].join('\n\n');

/** Enough pieces for a client to show the reply arriving the same way a model's does. */
const OFFLINE_WORDS_PER_CHUNK = 8;

function* offlineReply(botName: string, signal: AbortSignal) {
  const words = offlineReplyText(botName).match(/\S+\s*/g) ?? [];
  for (let i = 0; i < words.length && !signal.aborted; i += OFFLINE_WORDS_PER_CHUNK) {
    yield words.slice(i, i + OFFLINE_WORDS_PER_CHUNK).join('');
  }
}

export interface ChatReplyRequest {
  ai: Ai;
  botName: string;
  system: string;
  messages: ModelMessage[];
  /** Aborted when the user stops the reply or goes away: the reply then simply ends. */
  signal: AbortSignal;
  timeouts: ChatTimeouts;
  log: FastifyBaseLogger;
}

/**
 * The reply's text, piece by piece as the model writes it. Ends quietly when `signal` aborts; throws a
 * ChatReplyError when the model fails or times out. Offline, an honest reply says how to connect a model.
 */
export async function* streamChatReply(request: ChatReplyRequest): AsyncGenerator<string, void, undefined> {
  const { ai, log } = request;
  if (!ai.model) {
    yield* offlineReply(request.botName, request.signal);
    return;
  }

  // Also aborted on the way out, so the upstream request ends even if the caller stops reading early.
  const expired = new AbortController();
  // Set from a timer callback, so typed wider than its initial value for the checks after the loop.
  let timedOut = null as string | null;
  const expireWith = (message: string) => () => {
    timedOut = message;
    expired.abort();
  };
  const firstToken = setTimeout(expireWith(CHAT_ERRORS.firstTokenTimeout), request.timeouts.firstTokenMs);
  const total = setTimeout(expireWith(CHAT_ERRORS.totalTimeout), request.timeouts.totalMs);

  const result = streamText({
    model: ai.model,
    system: request.system,
    messages: request.messages,
    abortSignal: AbortSignal.any([request.signal, expired.signal]),
    // The user sees the failure at once and has a Retry button; silent retries would only make them wait.
    maxRetries: 0,
    // Errors arrive as 'error' parts below; the default handler would print them to stderr.
    onError: () => {},
  });
  try {
    for await (const part of result.fullStream) {
      // A reasoning model thinks before it writes; that counts as having started.
      if (part.type === 'text-delta' || part.type === 'reasoning-delta') clearTimeout(firstToken);
      if (part.type === 'text-delta' && part.text) yield part.text;
      if (part.type === 'error') throw part.error;
    }
  } catch (error) {
    if (!request.signal.aborted && !timedOut) {
      log.warn({ model: ai.modelId, error: errorSummary(error) }, 'chat reply: the model failed');
      throw new ChatReplyError(describeModelError(error, ai.modelId));
    }
  } finally {
    clearTimeout(firstToken);
    clearTimeout(total);
    expired.abort();
  }
  if (request.signal.aborted) return;
  if (timedOut) {
    log.warn({ model: ai.modelId, timeouts: request.timeouts }, 'chat reply: the model timed out');
    throw new ChatReplyError(timedOut);
  }
}
