import type { LanguageModelV2, LanguageModelV2CallWarning } from '@ai-sdk/provider';
import { streamEventError } from './model-retry';
import type { ChatStreamOptions } from './openai-chat-request';
import type { ChatStreamSink } from './openai-chat-stream';
import { ChatReplyError } from './tasks/model-errors';

/** The SDK's settings a caller of /v1 sets, by the names OpenAI gives them. */
const CALLER_SETTINGS: Partial<Record<string, string>> = {
  temperature: 'temperature',
  topP: 'top_p',
  stopSequences: 'stop',
  seed: 'seed',
  frequencyPenalty: 'frequency_penalty',
  presencePenalty: 'presence_penalty',
  responseFormat: 'response_format',
};

/**
 * A setting the provider said it dropped or changed (e.g. newer Claude models take no temperature nor top_p):
 * the caller set it, so the reply is refused naming it rather than answered without it.
 */
function refusedSetting(warnings: LanguageModelV2CallWarning[], options: ChatStreamOptions, modelId: string) {
  for (const warning of warnings) {
    if (warning.type !== 'unsupported-setting') continue;
    const setting = String(warning.setting);
    const param = CALLER_SETTINGS[setting];
    if (!param || (options as unknown as Record<string, unknown>)[setting] === undefined) continue;
    const why = warning.details ? `: ${warning.details}` : '';
    return new ChatReplyError(`'${param}' is not supported by the model ${modelId}${why}.`, {
      kind: 'invalid-request',
      param,
    });
  }
  return null;
}

/** Usage in Anthropic's stream events: input tokens come first (message_start), the output count at the end. */
function anthropicUsage(raw: unknown): { input?: number; output?: number } | null {
  const event = raw as { type?: string; message?: { usage?: AnthropicUsage }; usage?: AnthropicUsage } | null;
  const usage =
    event?.type === 'message_start' ? event.message?.usage : event?.type === 'message_delta' ? event.usage : undefined;
  if (!usage) return null;
  // Only what this event says: message_delta leaves out the input count message_start gave.
  return {
    ...(typeof usage.input_tokens === 'number' ? { input: usage.input_tokens } : {}),
    ...(typeof usage.output_tokens === 'number' ? { output: usage.output_tokens } : {}),
  };
}
interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
}

/**
 * The provider's own stream (`doStream`), for the APIs Botty does not read itself (Anthropic). Its raw events
 * are read for their usage too: the SDK reports usage only at the end, and a stopped reply has none.
 */
export async function streamProvider(model: LanguageModelV2, options: ChatStreamOptions, sink: ChatStreamSink) {
  const reader = (await model.doStream({ ...options, includeRawChunks: true })).stream.getReader();
  let unreported: { input?: number; output?: number } | null = null;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) return;
      switch (part.type) {
        case 'stream-start': {
          const refused = refusedSetting(part.warnings, options, model.modelId);
          if (refused) {
            await reader.cancel();
            throw refused;
          }
          break;
        }
        case 'raw': {
          const usage = anthropicUsage(part.rawValue);
          if (usage) unreported = { ...(unreported ?? {}), ...usage };
          break;
        }
        case 'text-delta':
          if (part.delta) sink.text(part.delta);
          break;
        case 'reasoning-delta':
        case 'tool-input-start':
          sink.started();
          break;
        case 'tool-call':
          sink.toolCall(part);
          break;
        case 'finish':
          unreported = null;
          sink.finish?.(part.finishReason);
          sink.usage(part.usage.inputTokens, part.usage.outputTokens);
          break;
        case 'error':
          throw streamEventError(part.error, '');
      }
    }
  } finally {
    if (unreported) sink.usage(unreported.input, unreported.output);
    reader.releaseLock();
  }
}
