import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { SUPPORT_INSTRUCTIONS } from '../../src/server/ai/tasks/check-support';
import { CONVERSATION_TITLE_INSTRUCTIONS } from '../../src/server/ai/tasks/conversation-title';
import type { FakeToolCall } from './fake-llm';
import { sendJson, startFakeServer, type Received } from './fake-server-base';

/** Content blocks of a Messages API request: text, image, tool_use, tool_result (others pass unchecked). */
export interface AnthropicBlock {
  type: string;
  text?: string;
  source?: { type: string; media_type?: string; data?: string };
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | AnthropicBlock[];
}

export interface AnthropicRequest {
  model: string;
  max_tokens?: number;
  system?: string | { type: 'text'; text: string }[];
  messages: { role: 'user' | 'assistant'; content: string | AnthropicBlock[] }[];
  tools?: { name: string }[];
  tool_choice?: { type: string; name?: string };
  stream?: boolean;
  [key: string]: unknown;
}

export type ReceivedAnthropicRequest = Received<AnthropicRequest>;

/** An error as Anthropic reports it, in an HTTP answer or as a stream's `error` event. */
export interface AnthropicErrorBody {
  type: string;
  message: string;
}

/**
 * What the fake answers with:
 * - a string, or `{ text }`: a reply (streamed in word-sized text deltas, or `chunks` as given);
 *   `hangAfterChunks` stops part-way and keeps the stream open until the client leaves; `errorAfterChunks`
 *   sends an `error` event (e.g. `overloaded_error`) after that many text deltas (0: before any content);
 * - `{ toolCalls }`: tool_use blocks, streamed with input_json_delta pieces, ending with stop_reason tool_use;
 * - `{ status, error }`: an HTTP error with Anthropic's error JSON (`headers`, e.g. retry-after, as given).
 */
export type AnthropicReply =
  | string
  | {
      text: string;
      chunks?: string[];
      chunkDelayMs?: number;
      hangAfterChunks?: number;
      errorAfterChunks?: { at: number; error: AnthropicErrorBody };
    }
  | { toolCalls: FakeToolCall[]; text?: string }
  | { status: number; error?: AnthropicErrorBody; headers?: Record<string, string> };

export type AnthropicPlan =
  AnthropicReply | ((request: ReceivedAnthropicRequest) => AnthropicReply | Promise<AnthropicReply>);

/** Anthropic measures an image on its base64 data: more than 5 MiB of it is refused. */
export const ANTHROPIC_MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

const words = (text: string) => text.match(/\s*\S+\s*/g) ?? [text];
const tokenCount = (text: string) => (text ? words(text).length : 0);

function blocksOf(content: string | AnthropicBlock[]): AnthropicBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function textOf(content: string | AnthropicBlock[] | undefined): string {
  if (content === undefined) return '';
  return blocksOf(content)
    .map((b) => (b.type === 'tool_result' ? textOf(b.content) : (b.text ?? '')))
    .join(' ');
}

/** The system prompt that reached the model. */
export const anthropicSystemOf = (request: ReceivedAnthropicRequest) => {
  const system = request.body.system;
  return typeof system === 'string' ? system : (system ?? []).map((s) => s.text).join('\n');
};

/** The tool_result blocks a request carried back to the model, oldest first. */
export const anthropicToolResultsOf = (request: ReceivedAnthropicRequest) =>
  request.body.messages
    .flatMap((m) => blocksOf(m.content))
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ toolUseId: b.tool_use_id, content: textOf(b.content) }));

/** What the real API refuses with a 400 before it starts (the checks Botty has tripped over). */
function refusal(body: AnthropicRequest): string | null {
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const blocks = body.messages.flatMap((m, i) => blocksOf(m.content).map((block, j) => ({ block, i, j })));
  if (!body.tools?.length && blocks.some(({ block }) => block.type === 'tool_use' || block.type === 'tool_result')) {
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  }
  for (const { block, i, j } of blocks) {
    const size = block.type === 'image' ? (block.source?.data?.length ?? 0) : 0;
    if (size > ANTHROPIC_MAX_IMAGE_BASE64) {
      return `messages.${i}.content.${j}.image.source.base64: image exceeds 5 MB maximum: ${size} bytes > ${ANTHROPIC_MAX_IMAGE_BASE64} bytes`;
    }
  }
  return null;
}

/**
 * A loopback server speaking Anthropic's Messages API (POST /v1/messages, plain and `stream: true` with its SSE
 * events: message_start, content_block_start/delta/stop, message_delta with usage and stop_reason,
 * message_stop, ping, error). It refuses what the real API refuses (see `refusal`) and records every request;
 * conversation-title calls are answered and recorded apart (see fake-server-base.ts).
 */
export async function startFakeAnthropic(options: { model?: string; reply?: AnthropicPlan } = {}) {
  const model = options.model ?? 'claude-fake-4';
  let sequence = 0;
  const errorJson = (error: AnthropicErrorBody) => ({ type: 'error', error });

  const inputTokens = (body: AnthropicRequest) =>
    tokenCount([textOf(body.system as never), ...body.messages.map((m) => textOf(m.content))].join(' '));

  const toolUse = (call: FakeToolCall, index: number) => ({
    type: 'tool_use',
    id: `toolu_fake_${sequence}_${index}`,
    name: call.name,
    input: call.arguments,
  });

  function complete(res: ServerResponse, request: ReceivedAnthropicRequest, text: string, calls: FakeToolCall[]) {
    const content = [...(text ? [{ type: 'text', text }] : []), ...calls.map(toolUse)];
    sendJson(res, 200, {
      id: `msg_fake_${++sequence}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: calls.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens(request.body), output_tokens: tokenCount(text) + calls.length * 10 },
    });
  }

  async function stream(
    res: ServerResponse,
    request: ReceivedAnthropicRequest,
    reply: Exclude<AnthropicReply, string | { status: number }> & { text?: string; toolCalls?: FakeToolCall[] },
  ) {
    const id = `msg_fake_${++sequence}`;
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const usage = { input_tokens: inputTokens(request.body), output_tokens: 1 };
    event('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage },
    });
    event('ping', {});
    const text = reply.text ?? '';
    const chunks = 'chunks' in reply && reply.chunks ? reply.chunks : text ? words(text) : [];
    const failure = 'errorAfterChunks' in reply ? reply.errorAfterChunks : undefined;
    const hangAt = 'hangAfterChunks' in reply ? reply.hangAfterChunks : undefined;
    const delay = 'chunkDelayMs' in reply ? (reply.chunkDelayMs ?? 0) : 0;
    let index = 0;
    if (chunks.length) {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const [i, chunk] of chunks.entries()) {
        if (failure?.at === i) return res.end(`event: error\ndata: ${JSON.stringify(errorJson(failure.error))}\n\n`);
        if (hangAt !== undefined && i >= hangAt) return;
        if (delay > 0) await sleep(delay);
        if (request.aborted) return;
        event('content_block_delta', { index, delta: { type: 'text_delta', text: chunk } });
      }
      event('content_block_stop', { index });
      index += 1;
    } else if (failure) {
      return res.end(`event: error\ndata: ${JSON.stringify(errorJson(failure.error))}\n\n`);
    }
    const calls = reply.toolCalls ?? [];
    for (const [i, call] of calls.entries()) {
      const block = toolUse(call, i);
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(call.arguments);
      const half = Math.ceil(json.length / 2);
      for (const piece of [json.slice(0, half), json.slice(half)]) {
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      event('content_block_stop', { index });
      index += 1;
    }
    event('message_delta', {
      delta: { stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: tokenCount(text) + calls.length * 10 },
    });
    event('message_stop', {});
    res.end();
  }

  async function answer(res: ServerResponse, request: ReceivedAnthropicRequest, takePlan: () => AnthropicPlan) {
    const refused = refusal(request.body);
    if (refused) return sendJson(res, 400, errorJson({ type: 'invalid_request_error', message: refused }));
    const plan = takePlan();
    const reply = typeof plan === 'function' ? await plan(request) : plan;
    if (typeof reply !== 'string' && 'status' in reply) {
      const error = reply.error ?? { type: 'api_error', message: `fake error ${reply.status}` };
      return sendJson(res, reply.status, errorJson(error), reply.headers);
    }
    const given = typeof reply === 'string' ? { text: reply } : reply;
    if (request.body.stream) return stream(res, request, given);
    return complete(res, request, given.text ?? '', 'toolCalls' in given ? given.toolCalls : []);
  }

  const errorTypes = { 'not-found': 'not_found_error', 'bad-request': 'invalid_request_error', failed: 'api_error' };
  const server = await startFakeServer<AnthropicRequest, AnthropicPlan>({
    endpoint: '/v1/messages',
    defaultReply: options.reply ?? 'Hello from the fake Claude.',
    noRequest: 'the fake Anthropic API has received no request',
    errorBody: (kind, message) => errorJson({ type: errorTypes[kind], message }),
    isTitleRequest: (request) => anthropicSystemOf(request) === CONVERSATION_TITLE_INSTRUCTIONS,
    // No map of sentences: the support check falls back to word overlap, apart from the requests tests look at.
    isSupportRequest: (request) => anthropicSystemOf(request).startsWith(SUPPORT_INSTRUCTIONS),
    supportReply: 'No map of sentences.',
    answer,
  });

  // `requests` holds refused requests too; LLM_BASE_URL is `baseUrl` (the SDK appends /messages).
  return { ...server, model };
}

export type FakeAnthropic = Awaited<ReturnType<typeof startFakeAnthropic>>;
