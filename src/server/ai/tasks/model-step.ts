import type { LanguageModelV2, LanguageModelV2FinishReason, LanguageModelV2ToolCall } from '@ai-sdk/provider';
import type { FastifyBaseLogger } from 'fastify';
import { busyOf, pause, retryDelayMs } from '../model-retry';
import type { ChatStreamOptions } from '../openai-chat-request';
import { streamOpenAiChat, type ChatStreamSink, type TokenLogprob } from '../openai-chat-stream';
import { streamProvider } from '../provider-stream';
import type { Ai } from '../providers';
import { describeModelError, refusesTools, ToolsUnsupportedError } from './model-errors';
import type { ReplyDeadlines } from './reply-deadlines';

/** What one model call wrote and which tools it called. */
export interface ModelStep {
  text: string;
  calls: LanguageModelV2ToolCall[];
  /** As the model reported it; 'unknown' when it did not. */
  finishReason: LanguageModelV2FinishReason;
}

export interface ModelStepHandlers {
  onText(delta: string): void;
  onUsage(inputTokens: number | undefined, outputTokens: number | undefined): void;
  onLogprobs?(tokens: TokenLogprob[]): void;
}

/**
 * One call of the model, asked again while its provider is busy. `toolsRefusable`: a refusal of the request
 * means the model takes no tool definitions (a ToolsUnsupportedError).
 */
export async function streamModelStep(
  ai: Ai,
  options: ChatStreamOptions,
  handlers: ModelStepHandlers,
  deadlines: ReplyDeadlines,
  log: FastifyBaseLogger,
  toolsRefusable: boolean,
): Promise<ModelStep> {
  const step: ModelStep = { text: '', calls: [], finishReason: 'unknown' };
  const { started } = deadlines;
  const sink: ChatStreamSink = {
    text(delta) {
      started();
      step.text += delta;
      handlers.onText(delta);
    },
    // A reasoning model thinks before it writes; that counts as having started.
    started,
    toolCall(call) {
      started();
      step.calls.push(call);
    },
    usage: handlers.onUsage,
    finish(reason) {
      step.finishReason = reason;
    },
    ...(handlers.onLogprobs ? { logprobs: handlers.onLogprobs } : {}),
  };
  for (let retry = 1; ; retry++) {
    try {
      await (ai.chatEndpoint
        ? streamOpenAiChat(ai.chatEndpoint, options, sink)
        : streamProvider(ai.model as LanguageModelV2, options, sink));
      return step;
    } catch (error) {
      if (toolsRefusable && refusesTools(error)) throw new ToolsUnsupportedError(describeModelError(error, ai.modelId));
      // A busy provider is asked again, but only while this step has shown nothing: text already on the
      // screen would be written twice.
      const busy = step.text || deadlines.signal.aborted ? null : busyOf(error);
      const delay = busy ? retryDelayMs(retry, busy) : null;
      // A pause the first-token time limit would cut short ends as what it is: a busy model, not a slow one.
      if (delay === null || deadlines.outlastsFirstToken(delay)) throw error;
      log.info(
        { model: ai.modelId, status: busy?.status, retry, delayMs: Math.round(delay) },
        'chat reply: busy model, retrying',
      );
      step.calls.length = 0;
      await pause(delay, deadlines.signal);
    }
  }
}
