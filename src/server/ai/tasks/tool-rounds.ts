import type {
  LanguageModelV2FunctionTool,
  LanguageModelV2Message,
  LanguageModelV2Prompt,
  LanguageModelV2ToolCall,
  LanguageModelV2ToolResultOutput,
} from '@ai-sdk/provider';
import { asSchema, type Tool } from 'ai';
import { parsedJson } from './chat-prompt';

export function toolDefinitions(tools: Record<string, Tool>): LanguageModelV2FunctionTool[] {
  return Object.entries(tools).map(([name, tool]) => ({
    type: 'function',
    name,
    description: tool.description,
    inputSchema: asSchema(tool.inputSchema).jsonSchema,
  }));
}

export async function runTool(
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

/** One round for the prompt's history: what the model said and called, then what its tools answered. */
export function toolRoundMessages(
  stepText: string,
  calls: LanguageModelV2ToolCall[],
  results: LanguageModelV2ToolResultOutput[],
): LanguageModelV2Message[] {
  return [
    {
      role: 'assistant',
      content: [
        ...(stepText ? [{ type: 'text' as const, text: stepText }] : []),
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: parsedJson(call.input),
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
  ];
}

/** Told to the model on a last step that still defines the tools (see `keepTools` in runChatReply). */
const LAST_STEP_NOTE =
  'You have used all your tool calls for this reply. Answer now from what you have found, without calling tools.';

export function withLastStepNote(prompt: LanguageModelV2Prompt): LanguageModelV2Prompt {
  return prompt.map((message) =>
    message.role === 'system' ? { ...message, content: `${message.content}\n\n${LAST_STEP_NOTE}` } : message,
  );
}
