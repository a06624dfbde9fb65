import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SUPPORT_INSTRUCTIONS } from '../../src/server/ai/tasks/check-support';
import { CONVERSATION_TITLE_INSTRUCTIONS } from '../../src/server/ai/tasks/conversation-title';
import { sendJson, startFakeServer, type Received } from './fake-server-base';

export interface ChatMessage {
  role: string;
  /** A string, or content parts for multi-part messages. */
  content: unknown;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string };
  [key: string]: unknown;
}

export type ReceivedRequest = Received<ChatCompletionRequest>;

/**
 * What the fake model answers with:
 * - a string, or `{ text }`: a reply (streamed in word-sized chunks, or `chunks` as given, when asked to stream);
 *   `hangAfterChunks` stops a stream part-way and keeps it open until the client leaves; `noUsage` leaves out
 *   the token usage, as some local servers do; `finishReason` replaces 'stop' (e.g. 'length');
 * - `{ status }`: an OpenAI-style error response, with `headers` as given (e.g. retry-after on a 429 or 503);
 * - `{ hang: true }`: accepts the request and never answers;
 * - `{ raw }`: a 200 whose body is exactly this text (e.g. not JSON at all);
 * - `{ toolCalls }`: calls to the tools the request offered, in the OpenAI tools wire format (streamed as
 *   `tool_calls` deltas ending with `finish_reason: 'tool_calls'`), after `text` if given.
 * A request with `logprobs: true` gets each piece of text's log probabilities too (see `logprobsOf`).
 * A function plan can refuse tools as some local models do: `(r) => (r.body.tools ? { status: 400 } : 'Answer')`.
 */
export type FakeReply =
  | string
  | FakeTextReply
  | { toolCalls: FakeToolCall[]; text?: string }
  | { status: number; message?: string; headers?: Record<string, string> }
  | { hang: true }
  | { raw: string };

interface FakeTextReply {
  text: string;
  chunks?: string[];
  chunkDelayMs?: number;
  hangAfterChunks?: number;
  /** Awaited before chunk `index` is sent: holds the stream at a point until the test has seen it. */
  beforeChunk?: (index: number) => Promise<void> | void;
  noUsage?: boolean;
  /** Instead of 'stop', e.g. 'length' for a reply cut at the output cap. */
  finishReason?: string;
}

/** What the fake answers with once a plan is read: text, and the tool calls after it if any. */
type TextAnswer = FakeTextReply & { toolCalls?: FakeToolCall[] };

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type ReplyPlan = FakeReply | ((request: ReceivedRequest) => FakeReply | Promise<FakeReply>);

export interface FakeLlmOptions {
  /** Used when the queue is empty; defaults to a fixed sentence. */
  reply?: ReplyPlan;
  /** Pause before each streamed chunk, unless a reply sets its own. */
  chunkDelayMs?: number;
  model?: string;
  /**
   * A reasoning model (gpt-5, o3) thinks this many tokens before it answers; an output cap
   * (`max_completion_tokens` or `max_tokens`) no larger than that is used up by the reasoning: the answer is
   * empty with finish_reason 'length', as OpenAI's is.
   */
  reasoningTokens?: number;
  /** What GET /v1/models lists; defaults to `model` alone. */
  models?: string[];
  /** Answer GET /api/tags as an Ollama does, listing `models` with sizes (1 GB times their position). */
  ollama?: boolean;
  /** Awaited before each POST /v1/embeddings is answered (it is recorded first): holds it until the test has seen enough. */
  beforeEmbedding?: (input: string[]) => Promise<void> | void;
}

/** The text of a message whether its content is a string or a list of parts. */
export function messageText(message: ChatMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((p: { text?: string }) => p.text ?? '').join('');
  }
  return '';
}

/** The system prompt that reached the model. */
export const systemPromptOf = (request: ReceivedRequest) =>
  request.body.messages
    .filter((m) => m.role === 'system')
    .map(messageText)
    .join('\n');

/** The tools a request offered the model, by name. */
export const toolsOffered = (request: ReceivedRequest) =>
  ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/** The tool results a request carried back to the model (`role: 'tool'` messages), oldest first. */
export const toolResultsOf = (request: ReceivedRequest) =>
  request.body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({ toolCallId: (m as ChatMessage & { tool_call_id?: string }).tool_call_id, content: messageText(m) }));

/** The numbered sentences and sources of a support check's prompt (check-support.ts), as the judge reads them. */
export function supportCaseOf(request: ReceivedRequest) {
  const prompt = request.body.messages
    .filter((m) => m.role === 'user')
    .map(messageText)
    .join('\n');
  const sources = [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
  const sentences = [...prompt.matchAll(/^\((\d+)\) (.*)$/gm)].map((m) => ({ i: Number(m[1]), text: m[2]! }));
  return { sources, sentences };
}

/**
 * The fake judge of support checks, unless a test sets another: each sentence is backed by the listed sources it
 * cites with [n], questions state nothing.
 */
export function supportByCitations(request: ReceivedRequest): string {
  const { sources, sentences } = supportCaseOf(request);
  const cited = (text: string) => [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  return JSON.stringify({
    sentences: sentences.map(({ i, text }) => ({
      i,
      claim: !text.trimEnd().endsWith('?'),
      sources: cited(text).filter((n) => sources.includes(n)),
    })),
  });
}

/** Dimensions of the fake embeddings: enough that unrelated short texts rarely collide. */
export const FAKE_EMBEDDING_DIMENSIONS = 256;

/**
 * A deterministic embedding: each lower-cased word adds 1 to a dimension picked by its hash, so texts sharing
 * words point the same way and cosine similarity behaves like word overlap.
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0;
    for (const ch of word) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
    vector[hash % FAKE_EMBEDDING_DIMENSIONS]! += 1;
  }
  return vector;
}

const words = (text: string) => text.match(/\s*\S+\s*/g) ?? [text];
const tokenCount = (text: string) => words(text).length;

/**
 * When the request asks for `logprobs`, each piece of text as a token with a made-up log probability (-0.5) and
 * `top_logprobs` alternatives, in OpenAI's shape; otherwise nothing.
 */
function logprobsOf(request: ReceivedRequest, pieces: string[]) {
  if (!request.body.logprobs) return {};
  const top = typeof request.body.top_logprobs === 'number' ? request.body.top_logprobs : 0;
  const token = (text: string, logprob: number) => ({ token: text, logprob, bytes: [...Buffer.from(text)] });
  const content = pieces.map((piece) => ({
    ...token(piece, -0.5),
    top_logprobs: Array.from({ length: top }, (_, i) => token(i ? `${piece}${i}` : piece, -0.5 - i)),
  }));
  return { logprobs: { content, refusal: null } };
}

/**
 * A small OpenAI-compatible server on loopback: POST /v1/chat/completions (plain and `stream: true`),
 * POST /v1/embeddings and GET /v1/models. It records every request so tests can assert what reached the model.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}) {
  const model = options.model ?? 'fake-model';
  const embeddingRequests: { input: string[]; model: string }[] = [];
  const listRequests: IncomingHttpHeaders[] = [];
  let sequence = 0;

  const completionId = () => `chatcmpl-fake-${++sequence}`;
  const toolCallsOf = (calls: FakeToolCall[]) =>
    calls.map((call, index) => ({
      index,
      id: `call_fake_${sequence}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));

  function complete(
    res: ServerResponse,
    request: ReceivedRequest,
    text: string,
    calls: FakeToolCall[] = [],
    finishReason = 'stop',
  ) {
    const prompt = request.body.messages.map(messageText).join(' ');
    const id = completionId();
    const message = calls.length ? { tool_calls: toolCallsOf(calls) } : {};
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, ...message },
          ...logprobsOf(request, text ? words(text) : []),
          finish_reason: calls.length ? 'tool_calls' : finishReason,
        },
      ],
      usage: {
        prompt_tokens: tokenCount(prompt),
        completion_tokens: tokenCount(text),
        total_tokens: tokenCount(prompt) + tokenCount(text),
      },
    });
  }

  async function stream(res: ServerResponse, request: ReceivedRequest, reply: TextAnswer) {
    const id = completionId();
    const created = Math.floor(Date.now() / 1000);
    const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
      );
    const delay = reply.chunkDelayMs ?? options.chunkDelayMs ?? 0;

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    const chunks = reply.chunks ?? (reply.text ? words(reply.text) : []);
    for (const [i, chunk] of chunks.entries()) {
      if (reply.hangAfterChunks !== undefined && i >= reply.hangAfterChunks) return;
      if (delay > 0) await sleep(delay);
      await reply.beforeChunk?.(i);
      if (request.aborted) return;
      event([{ index: 0, delta: { content: chunk }, ...logprobsOf(request, [chunk]), finish_reason: null }]);
    }
    const calls = reply.toolCalls ?? [];
    // Each call's name first, then its arguments in two pieces, as OpenAI streams them.
    for (const call of toolCallsOf(calls)) {
      const { arguments: args, ...named } = call.function;
      const half = Math.ceil(args.length / 2);
      event([{ index: 0, delta: { tool_calls: [{ ...call, function: { ...named, arguments: '' } }] } }]);
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        event([{ index: 0, delta: { tool_calls: [{ index: call.index, function: { arguments: piece } }] } }]);
      }
    }
    event([{ index: 0, delta: {}, finish_reason: calls.length ? 'tool_calls' : (reply.finishReason ?? 'stop') }]);
    if (request.body.stream_options?.include_usage && !reply.noUsage) {
      const prompt = tokenCount(request.body.messages.map(messageText).join(' '));
      const completion = tokenCount(reply.text);
      event([], { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
    }
    res.end('data: [DONE]\n\n');
  }

  /** A reasoning model's answer when its output cap went on thinking: no text, finish_reason 'length'. */
  function reasoningUsedUp(res: ServerResponse, request: ReceivedRequest, cap: number) {
    const prompt = tokenCount(request.body.messages.map(messageText).join(' '));
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: cap,
      total_tokens: prompt + cap,
      completion_tokens_details: { reasoning_tokens: cap },
    };
    const base = { id: completionId(), created: Math.floor(Date.now() / 1000), model };
    if (!request.body.stream) {
      const choice = { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length' };
      return sendJson(res, 200, { ...base, object: 'chat.completion', choices: [choice], usage });
    }
    const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    event([{ index: 0, delta: {}, finish_reason: 'length' }]);
    if (request.body.stream_options?.include_usage) event([], { usage });
    res.end('data: [DONE]\n\n');
  }

  async function answer(res: ServerResponse, request: ReceivedRequest, takePlan: () => ReplyPlan) {
    const cap = request.body.max_completion_tokens ?? request.body.max_tokens;
    if (options.reasoningTokens !== undefined && typeof cap === 'number' && cap <= options.reasoningTokens) {
      return reasoningUsedUp(res, request, cap);
    }
    const plan = takePlan();
    const reply = typeof plan === 'function' ? await plan(request) : plan;
    if (typeof reply === 'string') return answerWithText(res, request, { text: reply });
    if ('hang' in reply) return;
    if ('raw' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(reply.raw);
    }
    if ('status' in reply) {
      return sendJson(
        res,
        reply.status,
        { error: { message: reply.message ?? `fake error ${reply.status}`, type: 'server_error', code: null } },
        reply.headers,
      );
    }
    if ('toolCalls' in reply)
      return answerWithText(res, request, { text: reply.text ?? '', toolCalls: reply.toolCalls });
    return answerWithText(res, request, reply);
  }

  function answerWithText(res: ServerResponse, request: ReceivedRequest, reply: TextAnswer) {
    return request.body.stream
      ? stream(res, request, reply)
      : complete(res, request, reply.text, reply.toolCalls, reply.finishReason);
  }

  /** GET /v1/models (a connection's Test), GET /api/tags as Ollama, and POST /v1/embeddings. */
  function otherRoute(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) {
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const body = JSON.parse(raw.toString('utf8')) as { input: string | string[]; model: string };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ input, model: body.model });
      void Promise.resolve(options.beforeEmbedding?.(input)).then(() =>
        sendJson(res, 200, {
          object: 'list',
          model: body.model,
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
          usage: { prompt_tokens: tokenCount(input.join(' ')), total_tokens: tokenCount(input.join(' ')) },
        }),
      );
      return true;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      listRequests.push(req.headers);
      const data = (options.models ?? [model]).map((id) => ({ id, object: 'model', owned_by: 'fake' }));
      sendJson(res, 200, { object: 'list', data });
      return true;
    }
    if (req.method === 'GET' && path === '/api/tags' && options.ollama) {
      const tags = (options.models ?? [model]).map((name, i) => ({ name, model: name, size: (i + 1) * 1e9 }));
      sendJson(res, 200, { models: tags });
      return true;
    }
    return false;
  }

  const server = await startFakeServer<ChatCompletionRequest, ReplyPlan>({
    endpoint: '/v1/chat/completions',
    defaultReply: options.reply ?? 'Hello from the fake model.',
    noRequest: 'the fake model has received no request',
    errorBody: (kind, message) => ({
      error: { message, type: kind === 'failed' ? 'server_error' : 'invalid_request_error' },
    }),
    isTitleRequest: (request) => systemPromptOf(request) === CONVERSATION_TITLE_INSTRUCTIONS,
    isSupportRequest: (request) => systemPromptOf(request).startsWith(SUPPORT_INSTRUCTIONS),
    supportReply: supportByCitations,
    otherRoute,
    answer,
  });

  return {
    ...server,
    model,
    /** Every POST /v1/embeddings received (the texts embedded), oldest first. */
    embeddingRequests,
    /** The headers of every GET /v1/models (a connection's Test), oldest first. */
    listRequests,
  };
}

export type FakeLlm = Awaited<ReturnType<typeof startFakeLlm>>;

/** An http URL on which nothing listens, for "the model server is down". */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
