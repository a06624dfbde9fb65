import type { LanguageModelV2CallOptions, LanguageModelV2FunctionTool, LanguageModelV2Prompt } from '@ai-sdk/provider';

/** Where an OpenAI-style chat completions API is and how to call it; built only by providers.ts. */
export interface OpenAiChatEndpoint {
  baseURL: string;
  modelId: string;
  /** The provider's own headers (the API key among them), sent to this endpoint and nowhere else. */
  headers: Record<string, string>;
  /** OpenAI's reasoning models take `max_completion_tokens`, no temperature, and `developer` instructions. */
  reasoning?: boolean;
}

/** One model call's options: the SDK's (a subset), so the same object goes to its providers' `doStream`. */
export interface ChatStreamOptions extends Pick<
  LanguageModelV2CallOptions,
  | 'toolChoice'
  | 'responseFormat'
  | 'stopSequences'
  | 'seed'
  | 'topP'
  | 'frequencyPenalty'
  | 'presencePenalty'
  | 'providerOptions'
> {
  prompt: LanguageModelV2Prompt;
  tools?: LanguageModelV2FunctionTool[];
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal: AbortSignal;
}

/** The streamed chat completion request for `options`, in the names the endpoint takes. */
export function chatCompletionRequest(endpoint: OpenAiChatEndpoint, options: ChatStreamOptions) {
  return {
    model: endpoint.modelId,
    messages: toOpenAiMessages(options.prompt, endpoint.reasoning ? 'developer' : 'system'),
    ...(options.tools?.length
      ? {
          tools: options.tools.map((tool) => ({
            type: 'function',
            function: {
              name: tool.name,
              description: tool.description,
              parameters: tool.inputSchema,
              // A caller's strict tool (/v1): its arguments follow the schema exactly.
              ...(tool.providerOptions?.openai?.strict !== undefined
                ? { strict: tool.providerOptions.openai.strict }
                : {}),
            },
          })),
        }
      : {}),
    ...(options.maxOutputTokens !== undefined
      ? { [endpoint.reasoning ? 'max_completion_tokens' : 'max_tokens']: options.maxOutputTokens }
      : {}),
    ...(options.temperature !== undefined && !endpoint.reasoning ? { temperature: options.temperature } : {}),
    ...callerFields(options),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** OpenAI's names for the options a caller of /v1 set (caller-settings.ts), as @ai-sdk/openai would send them. */
function callerFields(options: ChatStreamOptions) {
  const openai = (options.providerOptions?.openai ?? {}) as {
    user?: string;
    parallelToolCalls?: boolean;
    logprobs?: number | boolean;
    strictJsonSchema?: boolean;
  };
  const format = options.responseFormat;
  const choice = options.toolChoice;
  const fields: Record<string, unknown> = {
    stop: options.stopSequences,
    seed: options.seed,
    top_p: options.topP,
    frequency_penalty: options.frequencyPenalty,
    presence_penalty: options.presencePenalty,
    user: openai.user,
    parallel_tool_calls: options.tools?.length ? openai.parallelToolCalls : undefined,
    logprobs: openai.logprobs === undefined ? undefined : true,
    top_logprobs: typeof openai.logprobs === 'number' ? openai.logprobs : undefined,
    tool_choice:
      choice && options.tools?.length
        ? choice.type === 'tool'
          ? { type: 'function', function: { name: choice.toolName } }
          : choice.type
        : undefined,
    response_format:
      format?.type !== 'json'
        ? undefined
        : format.schema
          ? {
              type: 'json_schema',
              json_schema: {
                name: format.name ?? 'response',
                description: format.description,
                schema: format.schema,
                strict: openai.strictJsonSchema,
              },
            }
          : { type: 'json_object' },
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The prompt in the chat completions format, as the SDK's OpenAI-compatible provider writes it. */
function toOpenAiMessages(prompt: LanguageModelV2Prompt, systemRole: 'system' | 'developer') {
  return prompt.flatMap((message): Record<string, unknown>[] => {
    switch (message.role) {
      case 'system':
        return [{ role: systemRole, content: message.content }];
      case 'user': {
        const [only] = message.content;
        if (message.content.length === 1 && only?.type === 'text') return [{ role: 'user', content: only.text }];
        return [
          {
            role: 'user',
            content: message.content.map((part) =>
              part.type === 'text'
                ? { type: 'text', text: part.text }
                : { type: 'image_url', image_url: { url: dataUrl(part.mediaType, part.data) } },
            ),
          },
        ];
      }
      case 'assistant': {
        let text = '';
        const toolCalls = [];
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          if (part.type === 'tool-call') {
            const args = typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
            toolCalls.push({
              id: part.toolCallId,
              type: 'function',
              function: { name: part.toolName, arguments: args },
            });
          }
        }
        return [
          toolCalls.length
            ? { role: 'assistant', content: text || null, tool_calls: toolCalls }
            : { role: 'assistant', content: text },
        ];
      }
      case 'tool':
        return message.content.map((result) => ({
          role: 'tool',
          tool_call_id: result.toolCallId,
          content:
            result.output.type === 'text' || result.output.type === 'error-text'
              ? result.output.value
              : JSON.stringify(result.output.value),
        }));
    }
  });
}

function dataUrl(mediaType: string, data: string | Uint8Array | URL) {
  if (data instanceof URL) return data.toString();
  const base64 =
    typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  return `data:${mediaType === 'image/*' ? 'image/jpeg' : mediaType};base64,${base64}`;
}
