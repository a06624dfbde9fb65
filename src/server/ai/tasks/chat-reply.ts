import type { LanguageModelV2FinishReason, LanguageModelV2ToolCall } from '@ai-sdk/provider';
import type { Tool } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { callerCallOptions, type CallerSettings } from '../caller-settings';
import { capabilitiesOf } from '../model-capabilities';
import type { ChatStreamOptions } from '../openai-chat-request';
import type { TokenLogprob } from '../openai-chat-stream';
import type { Ai } from '../providers';
import { toPrompt, type ChatTurn, type TurnToolCall } from './chat-prompt';
import { checkImages } from './image-check';
import { CALLER_TOOL_CLASH, ChatReplyError, errorSummary, replyErrorOf } from './model-errors';
import { streamModelStep } from './model-step';
import { offlineReply, offlineReplyText } from './offline-reply';
import { startDeadlines, type ChatTimeouts } from './reply-deadlines';
import { runTool, toolDefinitions, toolRoundMessages, withLastStepNote } from './tool-rounds';

// The reply's pieces live in their own modules; its callers know this one.
export type { ChatTurn, TurnToolCall } from './chat-prompt';
export type { ChatTimeouts } from './reply-deadlines';
export {
  CHAT_ERRORS,
  ChatReplyError,
  describeModelError,
  errorSummary,
  ToolsUnsupportedError,
  type ReplyFailure,
} from './model-errors';
export { offlineReplyText } from './offline-reply';

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
  /** The OpenAI-compatible API's caller's settings, its own tools among them (see `runChatReply`). */
  caller?: CallerSettings;
  /** Handed the reply's `hold` (reply-deadlines.ts) once its time limits start, for waits that are not the model's. */
  onDeadlines?(hold: () => () => void): void;
}

export interface ReplyHandlers {
  onText(text: string): void;
  onUsage?(usage: ReplyUsage): void;
  /** The model called the caller's tools: the reply ends here, and the caller runs them. */
  onToolCalls?(calls: TurnToolCall[]): void;
  /** Why the last model call ended: its own stop, the output cap, or the caller's tool calls. */
  onFinish?(reason: LanguageModelV2FinishReason): void;
  /** The log probabilities of the text handed to `onText` next, when the caller asked for them. */
  onLogprobs?(tokens: TokenLogprob[]): void;
}

export const DEFAULT_MAX_STEPS = 5;

/**
 * Writes a reply, handing each piece of text to `onText` as the model produces it. Resolves when the reply is
 * complete or `signal` aborted; throws a ChatReplyError when the model fails or times out.
 *
 * The provider's raw stream (`doStream`) is read directly rather than through `streamText`: the SDK's
 * pipeline of transform streams costs more per token than everything else between model and browser together
 * (docs/decisions/0012). Tool rounds are a small loop here: call, run the tools, call again.
 */
export async function runChatReply(request: ChatReplyRequest, handlers: ReplyHandlers): Promise<void> {
  const { ai, log, caller } = request;
  if (!ai.model) {
    // Offline, the caller's tools are never called: the notice is the whole reply.
    const text = request.offlineText ?? offlineReplyText(request.botName);
    await offlineReply(text, request.signal, (piece) => handlers.onText(piece));
    return handlers.onFinish?.('stop');
  }
  const capabilities = capabilitiesOf(ai);
  checkImages(capabilities, request.turns);
  const callerTools = caller?.toolChoice?.type === 'none' ? [] : (caller?.tools ?? []);
  refuseToolClash(callerTools, request.tools);

  const deadlines = startDeadlines(request.timeouts, request.signal);
  request.onDeadlines?.(deadlines.hold);
  const { signal } = deadlines;
  const tools = capabilities.toolUse && request.tools && Object.keys(request.tools).length ? request.tools : undefined;
  const maxSteps = tools ? (request.maxSteps ?? DEFAULT_MAX_STEPS) : 1;
  const callerOptions = callerCallOptions(ai.provider, caller);
  // `none` is about the caller's tools: they are not offered, and the bot's own are chosen as usual.
  const choice = caller?.toolChoice?.type === 'none' ? undefined : caller?.toolChoice;
  const prompt = toPrompt(request.system, request.turns);
  const usage: ReplyUsage = { inputTokens: null, outputTokens: null };
  const addUsage = (key: keyof ReplyUsage, value: number | undefined) => {
    if (value !== undefined) usage[key] = (usage[key] ?? 0) + value;
  };
  let wroteText = false;
  const stepHandlers = {
    onText(delta: string) {
      wroteText = true;
      handlers.onText(delta);
    },
    onUsage(inputTokens: number | undefined, outputTokens: number | undefined) {
      addUsage('inputTokens', inputTokens);
      addUsage('outputTokens', outputTokens);
    },
    ...(handlers.onLogprobs ? { onLogprobs: handlers.onLogprobs } : {}),
  };
  let finishReason: LanguageModelV2FinishReason = 'unknown';

  try {
    for (let step = 1; step <= maxSteps && !signal.aborted; step++) {
      const offerTools = tools && step < maxSteps;
      // Anthropic refuses a history of tool calls without the tools' definitions (400): its last step keeps
      // them, and is told to answer; a tool call it makes anyway is not run.
      const keepTools = !offerTools && tools && step > 1 && capabilities.toolsWithToolHistory;
      const definitions = [...(offerTools || keepTools ? toolDefinitions(tools) : []), ...callerTools];
      const options: ChatStreamOptions = {
        ...callerOptions,
        prompt: keepTools ? withLastStepNote(prompt) : prompt,
        abortSignal: signal,
        maxOutputTokens: request.maxOutputTokens ?? capabilities.chatMaxOutputTokens,
        temperature: request.temperature,
        ...(definitions.length ? { tools: definitions, ...(choice ? { toolChoice: choice } : {}) } : {}),
      };
      const { text, calls, ...ended } = await streamModelStep(
        ai,
        options,
        stepHandlers,
        deadlines,
        log,
        // A refusal with the caller's tools is the caller's to read, not a model without tools.
        Boolean(offerTools && step === 1 && !callerTools.length),
      );
      finishReason = ended.finishReason;
      const forCaller = calls.filter((call) => callerTools.some((tool) => tool.name === call.toolName));
      if (forCaller.length) {
        // The bot's own calls of the same round are left: the model asks again on the caller's next turn.
        handlers.onToolCalls?.(forCaller.map(turnToolCall));
        finishReason = 'tool-calls';
        break;
      }
      if (!calls.length || !offerTools) break;
      const results = await Promise.all(calls.map((call) => runTool(tools, call, signal)));
      prompt.push(...toolRoundMessages(text, calls, results));
    }
  } catch (error) {
    if (error instanceof ChatReplyError) throw error;
    if (!request.signal.aborted && !deadlines.timedOut()) {
      log.warn({ model: ai.modelId, error: errorSummary(error) }, 'chat reply: the model failed');
      const hasImages = request.turns.some((turn) => turn.images?.length);
      throw replyErrorOf(error, ai.modelId, hasImages && !wroteText);
    }
  } finally {
    deadlines.end(!ai.chatEndpoint);
    // Stopped and failed replies too: what the provider reported of them is what they cost.
    if (usage.inputTokens !== null || usage.outputTokens !== null) handlers.onUsage?.(usage);
  }
  if (request.signal.aborted) return;
  const timedOut = deadlines.timedOut();
  if (timedOut) {
    log.warn({ model: ai.modelId, timeouts: request.timeouts }, 'chat reply: the model timed out');
    throw new ChatReplyError(timedOut);
  }
  handlers.onFinish?.(finishReason);
}

const turnToolCall = (call: LanguageModelV2ToolCall): TurnToolCall => ({
  id: call.toolCallId,
  name: call.toolName,
  arguments: call.input,
});

/** A caller's tool named like one of the bot's own could not be told apart when the model calls it. */
function refuseToolClash(callerTools: { name: string }[], botTools: Record<string, Tool> | undefined) {
  const clash = callerTools.find((tool) => botTools && Object.hasOwn(botTools, tool.name));
  if (clash) {
    throw new ChatReplyError(CALLER_TOOL_CLASH(clash.name), { kind: 'invalid-request', param: 'tools' });
  }
}
