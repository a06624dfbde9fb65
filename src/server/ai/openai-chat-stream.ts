import type { LanguageModelV2FinishReason, LanguageModelV2ToolCall } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { chatCompletionRequest, type ChatStreamOptions, type OpenAiChatEndpoint } from './openai-chat-request';

/** A token's log probability as OpenAI reports it (`choices[].logprobs.content[]`), passed on as it came. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: { token: string; logprob: number; bytes: number[] | null }[];
}

/** What a streamed reply hands on, as it arrives: the same for this reader and the SDK's `doStream`. */
export interface ChatStreamSink {
  text(delta: string): void;
  /** The model started without text yet: reasoning, or a tool call on its way. */
  started(): void;
  toolCall(call: LanguageModelV2ToolCall): void;
  usage(inputTokens: number | undefined, outputTokens: number | undefined): void;
  /** Why the model stopped (its stop, the output cap, tool calls), once it says. */
  finish?(reason: LanguageModelV2FinishReason): void;
  /** The log probabilities of the text handed to `text` next (only when they were asked for). */
  logprobs?(tokens: TokenLogprob[]): void;
}

/**
 * Sockets idle longer than this are closed by us rather than reused: below the 5 s keep-alive of Node, uvicorn
 * and many proxies, so we rarely pick a connection the server is closing (the retry below covers the rest).
 */
const IDLE_SOCKET_MS = 4_000;
/**
 * Idle connections kept per model host. Node keeps 256: after a burst of more concurrent replies, the rest were
 * closed and the next burst connected (and, to a hosted model, shook TLS hands) again. Idle ones still close
 * after IDLE_SOCKET_MS.
 */
const MAX_IDLE_SOCKETS = 1024;
const agents = {
  'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: MAX_IDLE_SOCKETS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: MAX_IDLE_SOCKETS }),
};

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string; reasoning?: string; tool_calls?: ChunkToolCall[] };
    finish_reason?: string | null;
    logprobs?: { content?: TokenLogprob[] | null } | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * Streams a chat completion from an OpenAI-compatible API, reading the SSE body itself: one split per network
 * chunk and one JSON.parse per event, where the SDK provider runs web streams, an event-source parser and zod
 * validation per token (docs/decisions/0013). Fails like the provider would: APICallError with the status and
 * body for an error answer, without a status when the server cannot be reached; rejects with the abort
 * reason when `abortSignal` aborts. A finished stream leaves its connection open for the next request.
 */
export async function streamOpenAiChat(endpoint: OpenAiChatEndpoint, options: ChatStreamOptions, sink: ChatStreamSink) {
  const url = new URL(`${endpoint.baseURL.replace(/\/$/, '')}/chat/completions`);
  const body = JSON.stringify(chatCompletionRequest(endpoint, options));
  const calls = new Map<number, { id: string; name: string; input: string }>();
  const response = await post(url, endpoint.headers, body, options.abortSignal);
  await readEvents(response, options.abortSignal, (chunk) => handleChunk(chunk, sink, calls));
  for (const call of calls.values()) {
    sink.toolCall({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input || '{}' });
  }
}

function handleChunk(
  chunk: Chunk,
  sink: ChatStreamSink,
  calls: Map<number, { id: string; name: string; input: string }>,
) {
  if (chunk.error) throw new Error(chunk.error.message ?? 'The model reported an error mid-stream.');
  const choice = chunk.choices?.[0];
  const delta = choice?.delta;
  if (delta) {
    if (choice.logprobs?.content) sink.logprobs?.(choice.logprobs.content);
    if (delta.content) sink.text(delta.content);
    else if (delta.reasoning_content || delta.reasoning) sink.started();
    for (const piece of delta.tool_calls ?? []) {
      const index = piece.index ?? calls.size;
      const call = calls.get(index);
      if (call) call.input += piece.function?.arguments ?? '';
      else {
        sink.started();
        calls.set(index, {
          id: piece.id ?? `call_${index}`,
          name: piece.function?.name ?? '',
          input: piece.function?.arguments ?? '',
        });
      }
    }
  }
  if (choice?.finish_reason) sink.finish?.(finishReasonOf(choice.finish_reason));
  if (chunk.usage) sink.usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens);
}

/** OpenAI's finish reason in the SDK's terms, as its provider maps it. */
function finishReasonOf(reason: string): LanguageModelV2FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
      return reason;
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** The response to a POST once its headers are in; a request on a reused connection that failed before any answer is sent once more. */
async function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal) {
  try {
    return await postOnce(url, headers, body, signal);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    return postOnce(url, headers, body, signal);
  }
}

/** The server closed a kept-alive connection as we reused it: nothing reached it, so asking again is safe. */
class StaleConnectionError extends Error {}

function postOnce(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    signal.throwIfAborted();
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request: ClientRequest = send(url, {
      method: 'POST',
      agent: agents[url.protocol as keyof typeof agents],
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const onAbort = () => request.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason as Error);
      if (request.reusedSocket && 'code' in error && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        return reject(new StaleConnectionError(error.message, { cause: error }));
      }
      reject(
        new APICallError({
          message: `Cannot connect to API: ${error.message}`,
          cause: error,
          url: url.href,
          requestBodyValues: {},
          isRetryable: true,
        }),
      );
    });
    request.on('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(response);
      void readText(response).then(
        (text) => reject(httpError(url, status, response, text)),
        (error: unknown) => reject(httpError(url, status, response, String(error))),
      );
    });
    request.end(body);
  });
}

function httpError(url: URL, statusCode: number, response: IncomingMessage, responseBody: string) {
  let message = response.statusMessage ?? `HTTP ${statusCode}`;
  try {
    const parsed = JSON.parse(responseBody) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not JSON: the status line says enough.
  }
  return new APICallError({
    message,
    url: url.href,
    requestBodyValues: {},
    statusCode,
    responseHeaders: response.headers as Record<string, string>,
    responseBody,
    isRetryable: statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500,
  });
}

async function readText(response: IncomingMessage) {
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk as string;
  return text;
}

/**
 * Calls `onEvent` with each server-sent event's JSON data as it arrives; resolves at the end of the body.
 * `data: [DONE]` and lines other than `data:` (comments, ids) are skipped.
 */
function readEvents(response: IncomingMessage, signal: AbortSignal, onEvent: (chunk: Chunk) => void) {
  return new Promise<void>((resolve, reject) => {
    let rest = '';
    let data = '';
    const fail = (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      response.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const take = (lines: string[]) => {
      for (let line of lines) {
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (line === '') {
          if (data && data !== '[DONE]') onEvent(JSON.parse(data) as Chunk);
          data = '';
        } else if (line.startsWith('data:')) {
          const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
          data = data ? `${data}\n${value}` : value;
        }
      }
    };
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      try {
        take(lines);
      } catch (error) {
        fail(error);
      }
    });
    response.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      try {
        // A body may end without the blank line after its last event.
        take([rest, '']);
        resolve();
      } catch (error) {
        reject(error);
      }
    });
    response.on('error', fail);
    // A connection cut mid-body closes the response without an error.
    response.on('close', () => {
      if (!response.complete) fail(new Error('The model closed the connection mid-reply.'));
    });
  });
}
