import type { LanguageModelV2 } from '@ai-sdk/provider';
import { streamEventError } from './model-retry';
import type { ChatStreamOptions, ChatStreamSink } from './openai-chat-stream';

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
