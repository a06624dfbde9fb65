import type {
  LanguageModelV2,
  LanguageModelV2FunctionTool,
  LanguageModelV2Message,
  LanguageModelV2Prompt,
  LanguageModelV2ToolCall,
  LanguageModelV2ToolResultOutput,
} from '@ai-sdk/provider';
import { APICallError, RetryError, asSchema, type Tool } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { imageSize } from 'image-size';
import { formatBytes } from '@shared/contracts/files';
import { capabilitiesOf, imageRefusal, type ModelCapabilities } from '../model-capabilities';
import { busyOf, pause, retryDelayMs, type ModelBusy } from '../model-retry';
import { streamProvider } from '../provider-stream';
import { streamOpenAiChat, type ChatStreamOptions, type ChatStreamSink } from '../openai-chat-stream';
import type { Ai } from '../providers';

export interface ChatTimeouts {
  /** From the request to the model's first output: a model that never starts is down or overloaded. */
  firstTokenMs: number;
  /** The whole reply. Local models on a CPU write slowly, so this is generous; it bounds what one reply holds. */
  totalMs: number;
}

/** What the user reads when a reply fails: what happened and, where it is the operator's to fix, where to look. */
export const CHAT_ERRORS = {
  unreachable: 'The language model is not reachable. Check LLM_BASE_URL and that the model server is running.',
  apiKey: 'The language model rejected the API key.',
  modelNotFound: (modelId: string | null) => `Model not found: ${modelId ?? 'unknown'}. Check LLM_MODEL.`,
  busy: 'The language model is busy right now. Please try again in a moment.',
  overloaded:
    "The language model's servers are overloaded right now, even after Botty asked again. Please try again in a minute.",
  status: (status: number) => `The language model failed to answer (error ${status}). Please try again.`,
  unknown: 'The language model failed to answer. Please try again.',
  firstTokenTimeout: 'The language model did not start answering in time. Please try again.',
  totalTimeout: 'The language model took too long, so the reply was cut short.',
  empty: 'The language model sent an empty reply. Please try again.',
  imageTooLarge: (maxBase64Bytes: number) =>
    `This image is too large for the connected model: its provider takes images of at most ${formatBytes(maxBase64Bytes)} once encoded (about ${formatBytes(Math.floor((maxBase64Bytes * 3) / 4))} as a file). Send a smaller image.`,
  imageTooWide: (maxSide: number) =>
    `This image is too large for the connected model: its provider takes images of at most ${maxSide} pixels a side. Send a smaller image.`,
  imagesRejected:
    'The language model could not read the image. Connect a model that understands images (a vision model), or send the message without it.',
} as const;

/** Why a reply failed, for an API that answers with a status (/v1): the provider was busy, or an image too large. */
export type ReplyFailure = ({ kind: 'busy' } & ModelBusy) | { kind: 'image-too-large' };

/** A failed reply, with a message fit for the user. */
export class ChatReplyError extends Error {
  override name = 'ChatReplyError';
  constructor(
    message: string,
    readonly failure: ReplyFailure | null = null,
  ) {
    super(message);
  }
}

export function describeModelError(error: unknown, modelId: string | null): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError, modelId);
  const busy = busyOf(error);
  if (busy) return busy.status === 429 ? CHAT_ERRORS.busy : CHAT_ERRORS.overloaded;
  if (!APICallError.isInstance(error)) return CHAT_ERRORS.unknown;
  // The SDK reports refused connections, DNS failures and resets as API call errors without a status.
  if (error.statusCode === undefined) return CHAT_ERRORS.unreachable;
  if (error.statusCode === 401 || error.statusCode === 403) return CHAT_ERRORS.apiKey;
  if (error.statusCode === 404) return CHAT_ERRORS.modelNotFound(modelId);
  return CHAT_ERRORS.status(error.statusCode);
}

/** Enough to diagnose; never the request (prompt, history) nor its headers (the API key). */
export function errorSummary(error: unknown) {
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

/** One turn of the conversation as the model sees it; images only on user turns. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
  images?: { mediaType: string; data: Uint8Array }[];
}

export interface ReplyUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface ChatReplyRequest {
  ai: Ai;
  botName: string;
  system: string;
  turns: ChatTurn[];
  /** Aborted when the user stops the reply or goes away: the reply then simply ends. */
  signal: AbortSignal;
  timeouts: ChatTimeouts;
  log: FastifyBaseLogger;
  /** Tools the model may call (AI SDK tools with `execute`); each call's result goes back to the model. */
  tools?: Record<string, Tool>;
  /** Model calls at most, tool rounds included; the last one is offered no tools, so it must answer. */
  maxSteps?: number;
  /** Offline mode answers this instead of the standard notice (e.g. with the passages it would have used). */
  offlineText?: string;
  /** Passed to the model as given (the OpenAI-compatible API's `max_tokens` and `temperature`). */
  maxOutputTokens?: number;
  temperature?: number;
}

export interface ReplyHandlers {
  onText(text: string): void;
  onUsage?(usage: ReplyUsage): void;
}

export const DEFAULT_MAX_STEPS = 5;

/** Thrown (as a ChatReplyError subclass) when a model refuses tool definitions, so the caller can do without. */
export class ToolsUnsupportedError extends ChatReplyError {
  override name = 'ToolsUnsupportedError';
}

function toPrompt(system: string, turns: ChatTurn[]): LanguageModelV2Prompt {
  const messages: LanguageModelV2Message[] = turns.map((turn) =>
    turn.role === 'assistant'
      ? { role: 'assistant', content: [{ type: 'text', text: turn.text }] }
      : {
          role: 'user',
          content: [
            { type: 'text', text: turn.text },
            ...(turn.images ?? []).map((image) => ({
              type: 'file' as const,
              mediaType: image.mediaType,
              data: image.data,
            })),
          ],
        },
  );
  return [{ role: 'system', content: system }, ...messages];
}

function toolDefinitions(tools: Record<string, Tool>): LanguageModelV2FunctionTool[] {
  return Object.entries(tools).map(([name, tool]) => ({
    type: 'function',
    name,
    description: tool.description,
    inputSchema: asSchema(tool.inputSchema).jsonSchema,
  }));
}

async function runTool(
  tools: Record<string, Tool>,
  call: LanguageModelV2ToolCall,
  signal: AbortSignal,
): Promise<LanguageModelV2ToolResultOutput> {
  const tool = tools[call.toolName];
  if (!tool?.execute) return { type: 'error-text', value: `Unknown tool: ${call.toolName}` };
  let input: unknown;
  try {
    input = call.input ? JSON.parse(call.input) : {};
  } catch {
    return { type: 'error-text', value: 'The tool input was not valid JSON.' };
  }
  const schema = asSchema(tool.inputSchema);
  const checked = schema.validate ? await schema.validate(input) : { success: true as const, value: input };
  if (!checked.success) return { type: 'error-text', value: `Invalid tool input: ${checked.error.message}` };
  try {
    const output: unknown = await tool.execute(checked.value, {
      toolCallId: call.toolCallId,
      messages: [],
      abortSignal: signal,
    });
    return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: output as never };
  } catch (error) {
    // A failed page or search is information for the model ("that page could not be read"), not a failed reply.
    return { type: 'error-text', value: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes a reply, handing each piece of text to `onText` as the model produces it. Resolves when the reply is
 * complete or `signal` aborted; throws a ChatReplyError when the model fails or times out.
 *
 * The provider's raw stream (`doStream`) is read directly rather than through `streamText`: the SDK's
 * pipeline of transform streams costs more per token than everything else between model and browser together
 * (docs/decisions/0012). Tool rounds are a small loop here: call, run the tools, call again.
 */
export async function runChatReply(request: ChatReplyRequest, handlers: ReplyHandlers): Promise<void> {
  const { ai, log } = request;
  if (!ai.model) return offlineReply(request.offlineText ?? offlineReplyText(request.botName), request, handlers);
  const model = ai.model as LanguageModelV2;
  const capabilities = capabilitiesOf(ai);
  checkImages(capabilities, request.turns);

  // Also aborted on the way out of the provider's stream, so its request ends even if the caller stops early.
  // Botty's own reader has nothing left open by then, and its finished connections are kept for reuse.
  const expired = new AbortController();
  // Set from a timer callback, so typed wider than its initial value for the checks after the loop.
  let timedOut = null as string | null;
  const expireWith = (message: string) => () => {
    timedOut = message;
    expired.abort();
  };
  let firstToken: NodeJS.Timeout | undefined = setTimeout(
    expireWith(CHAT_ERRORS.firstTokenTimeout),
    request.timeouts.firstTokenMs,
  );
  const firstTokenDeadline = performance.now() + request.timeouts.firstTokenMs;
  const started = () => {
    if (firstToken) clearTimeout(firstToken);
    firstToken = undefined;
  };
  const total = setTimeout(expireWith(CHAT_ERRORS.totalTimeout), request.timeouts.totalMs);
  // The caller's stop ends the model's request too. A listener rather than AbortSignal.any, which in Node 20
  // costs ~15 µs a reply and keeps weak references for the garbage collector to trace.
  const stop = () => expired.abort(request.signal.reason);
  if (request.signal.aborted) stop();
  else request.signal.addEventListener('abort', stop, { once: true });
  const signal = expired.signal;

  const tools = capabilities.toolUse && request.tools && Object.keys(request.tools).length ? request.tools : undefined;
  const maxSteps = tools ? (request.maxSteps ?? DEFAULT_MAX_STEPS) : 1;
  const prompt = toPrompt(request.system, request.turns);
  const usage: ReplyUsage = { inputTokens: null, outputTokens: null };
  const addUsage = (key: keyof ReplyUsage, value: number | undefined) => {
    if (value !== undefined) usage[key] = (usage[key] ?? 0) + value;
  };
  let wroteText = false;

  try {
    for (let step = 1; step <= maxSteps && !signal.aborted; step++) {
      const offerTools = tools && step < maxSteps;
      // Anthropic refuses a history of tool calls without the tools' definitions (400): its last step keeps
      // them, and is told to answer; a tool call it makes anyway is not run.
      const keepTools = !offerTools && tools && step > 1 && capabilities.toolsWithToolHistory;
      const options: ChatStreamOptions = {
        prompt: keepTools ? withSystemNote(prompt, LAST_STEP_NOTE) : prompt,
        abortSignal: signal,
        maxOutputTokens: request.maxOutputTokens ?? capabilities.chatMaxOutputTokens,
        temperature: request.temperature,
        ...(offerTools || keepTools ? { tools: toolDefinitions(tools) } : {}),
      };
      const calls: LanguageModelV2ToolCall[] = [];
      let stepText = '';
      const sink: ChatStreamSink = {
        text(delta) {
          started();
          stepText += delta;
          wroteText = true;
          handlers.onText(delta);
        },
        // A reasoning model thinks before it writes; that counts as having started.
        started,
        toolCall(call) {
          started();
          calls.push(call);
        },
        usage(inputTokens, outputTokens) {
          addUsage('inputTokens', inputTokens);
          addUsage('outputTokens', outputTokens);
        },
      };
      for (let retry = 1; ; retry++) {
        try {
          await (ai.chatEndpoint
            ? streamOpenAiChat(ai.chatEndpoint, options, sink)
            : streamProvider(model, options, sink));
          break;
        } catch (error) {
          // Some local models answer tool definitions with a 400; the caller can then search up front instead.
          if (
            offerTools &&
            step === 1 &&
            APICallError.isInstance(error) &&
            [400, 422].includes(error.statusCode ?? 0)
          ) {
            throw new ToolsUnsupportedError(describeModelError(error, ai.modelId));
          }
          // A busy provider is asked again, but only while this step has shown nothing: text already on the
          // screen would be written twice.
          const busy = stepText || signal.aborted ? null : busyOf(error);
          const delay = busy ? retryDelayMs(retry, busy) : null;
          // A pause the first-token time limit would cut short ends as what it is: a busy model, not a slow one.
          if (delay === null || (firstToken && performance.now() + delay >= firstTokenDeadline)) throw error;
          log.info(
            { model: ai.modelId, status: busy?.status, retry, delayMs: Math.round(delay) },
            'chat reply: busy model, retrying',
          );
          calls.length = 0;
          await pause(delay, signal);
        }
      }
      if (!calls.length || !offerTools) break;
      const results = await Promise.all(calls.map((call) => runTool(tools, call, signal)));
      prompt.push(
        {
          role: 'assistant',
          content: [
            ...(stepText ? [{ type: 'text' as const, text: stepText }] : []),
            ...calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: safeJson(call.input),
            })),
          ],
        },
        {
          role: 'tool',
          content: calls.map((call, i) => ({
            type: 'tool-result' as const,
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: results[i]!,
          })),
        },
      );
    }
  } catch (error) {
    if (error instanceof ChatReplyError) throw error;
    if (!request.signal.aborted && !timedOut) {
      log.warn({ model: ai.modelId, error: errorSummary(error) }, 'chat reply: the model failed');
      const hasImages = request.turns.some((turn) => turn.images?.length);
      const rejectedImages =
        hasImages && !wroteText && APICallError.isInstance(error) && [400, 415, 422].includes(error.statusCode ?? 0);
      const busy = busyOf(error);
      throw new ChatReplyError(
        rejectedImages ? CHAT_ERRORS.imagesRejected : describeModelError(error, ai.modelId),
        busy && { kind: 'busy', status: busy.status, retryAfterSeconds: busy.retryAfterSeconds },
      );
    }
  } finally {
    started();
    clearTimeout(total);
    request.signal.removeEventListener('abort', stop);
    if (!ai.chatEndpoint) expired.abort();
    // Stopped and failed replies too: what the provider reported of them is what they cost.
    if (usage.inputTokens !== null || usage.outputTokens !== null) handlers.onUsage?.(usage);
  }
  if (request.signal.aborted) return;
  if (timedOut) {
    log.warn({ model: ai.modelId, timeouts: request.timeouts }, 'chat reply: the model timed out');
    throw new ChatReplyError(timedOut);
  }
}

/** Told to the model on a last step that still defines the tools (see `keepTools`). */
const LAST_STEP_NOTE =
  'You have used all your tool calls for this reply. Answer now from what you have found, without calling tools.';

function withSystemNote(prompt: LanguageModelV2Prompt, note: string): LanguageModelV2Prompt {
  return prompt.map((message) =>
    message.role === 'system' ? { ...message, content: `${message.content}\n\n${note}` } : message,
  );
}

/** Refuses, before the model is asked, an image its provider would refuse (and blame on the model's vision). */
function checkImages(capabilities: ModelCapabilities, turns: ChatTurn[]) {
  if (capabilities.maxImageBase64Bytes === null && capabilities.maxImageSide === null) return;
  for (const image of turns.flatMap((turn) => turn.images ?? [])) {
    let size: { width?: number; height?: number } = {};
    try {
      size = imageSize(image.data);
    } catch {
      // Its type was checked when it was received; the provider tells about anything else.
    }
    const refusal = imageRefusal(capabilities, { byteLength: image.data.byteLength, ...size });
    if (refusal) {
      throw new ChatReplyError(
        'maxBase64Bytes' in refusal
          ? CHAT_ERRORS.imageTooLarge(refusal.maxBase64Bytes)
          : CHAT_ERRORS.imageTooWide(refusal.maxSide),
        { kind: 'image-too-large' },
      );
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

async function offlineReply(text: string, request: ChatReplyRequest, handlers: ReplyHandlers) {
  const words = text.match(/\S+\s*/g) ?? [];
  for (let i = 0; i < words.length && !request.signal.aborted; i += OFFLINE_WORDS_PER_CHUNK) {
    handlers.onText(words.slice(i, i + OFFLINE_WORDS_PER_CHUNK).join(''));
    // Yield between pieces so a stop request can be heard, as with a model.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
