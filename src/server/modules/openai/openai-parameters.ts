import { PROVIDER_PARAMETERS, providerName, type CallerParameter, type CallerSettings } from '../../ai/caller-settings';
import type { Ai } from '../../ai/providers';
import type { LlmProvider } from '../../config';
import { invalidRequest } from './openai-errors';
import type { ChatCompletionBody } from './openai.schemas';

/** OpenAI's fields Botty has nothing to pass on for: refused rather than dropped, like the table's "no". */
const UNSUPPORTED_FIELDS = ['functions', 'function_call', 'logit_bias', 'audio', 'prediction'] as const;

const README_SECTION = 'README, "OpenAI-compatible API: parameters per provider"';

const notHonoured = (param: string, provider: LlmProvider) =>
  invalidRequest(
    `'${param}' is not supported by this bot's model (${providerName(provider)}); leave it out. What each provider honours: ${README_SECTION}.`,
    param,
  );

/** The table's parameters the body sets, each with the name a 400 gives it. */
function parametersSet(body: ChatCompletionBody): [CallerParameter, string][] {
  const set = (value: unknown) => value !== undefined && value !== null;
  const format = body.response_format?.type;
  const found: [CallerParameter, string, boolean][] = [
    ['tools', 'tools', Boolean(body.tools?.length)],
    ['tool_choice', 'tool_choice', set(body.tool_choice)],
    ['parallel_tool_calls', 'parallel_tool_calls', set(body.parallel_tool_calls)],
    ['response_format: json_object', 'response_format', format === 'json_object'],
    ['response_format: json_schema', 'response_format', format === 'json_schema'],
    ['stop', 'stop', set(body.stop)],
    ['seed', 'seed', set(body.seed)],
    ['top_p', 'top_p', set(body.top_p)],
    ['frequency_penalty', 'frequency_penalty', set(body.frequency_penalty)],
    ['presence_penalty', 'presence_penalty', set(body.presence_penalty)],
    ['logprobs', 'logprobs', Boolean(body.logprobs)],
    ['logprobs', 'top_logprobs', set(body.top_logprobs)],
    ['user', 'user', set(body.user)],
  ];
  return found.filter(([, , isSet]) => isSet).map(([parameter, param]) => [parameter, param]);
}

/** The tool settings, checked as OpenAI checks them. */
function toolSettings(body: ChatCompletionBody): Pick<CallerSettings, 'tools' | 'toolChoice' | 'parallelToolCalls'> {
  const tools = body.tools ?? [];
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (names.has(tool.function.name)) {
      throw invalidRequest(`Two tools are named '${tool.function.name}'.`, `tools.${i}.function.name`);
    }
    names.add(tool.function.name);
  }
  const choice = body.tool_choice;
  if (choice && !tools.length) throw invalidRequest('tool_choice is only allowed when tools are given.', 'tool_choice');
  if (typeof choice === 'object' && choice && !names.has(choice.function.name)) {
    throw invalidRequest(`tool_choice names '${choice.function.name}', which is not in tools.`, 'tool_choice');
  }
  if (!tools.length) return {};
  return {
    tools: tools.map(({ function: f }) => ({
      type: 'function' as const,
      name: f.name,
      ...(f.description ? { description: f.description } : {}),
      inputSchema: (f.parameters ?? { type: 'object', properties: {} }) as never,
      ...(f.strict != null ? { providerOptions: { openai: { strict: f.strict } } } : {}),
    })),
    ...(choice
      ? { toolChoice: typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.function.name } }
      : {}),
    ...(body.parallel_tool_calls != null ? { parallelToolCalls: body.parallel_tool_calls } : {}),
  };
}

function responseFormat(body: ChatCompletionBody): CallerSettings['responseFormat'] {
  const format = body.response_format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  const { name, description, schema, strict } = format.json_schema;
  return {
    type: 'json',
    name,
    ...(description ? { description } : {}),
    ...(schema ? { schema: schema as never } : {}),
    ...(strict != null ? { strict } : {}),
  };
}

/**
 * The request's model settings for the bot's model, or a 400 naming the first parameter its provider does not
 * honour (src/server/ai/caller-settings.ts has the table). `toolHistory`: earlier messages hold tool calls.
 */
export function callerSettingsOf(body: ChatCompletionBody, ai: Pick<Ai, 'provider'>, toolHistory: boolean) {
  for (const field of UNSUPPORTED_FIELDS) {
    if ((body as Record<string, unknown>)[field] != null) {
      throw invalidRequest(`'${field}' is not supported by Botty's API; leave it out.`, field);
    }
  }
  const honoured = PROVIDER_PARAMETERS[ai.provider];
  const refused = parametersSet(body).find(([parameter]) => !honoured[parameter]);
  if (refused) throw notHonoured(refused[1], ai.provider);
  // Anthropic refuses a history of tool calls unless the tools are defined again.
  if (ai.provider === 'anthropic' && toolHistory && !body.tools?.length) {
    throw invalidRequest('The messages hold tool calls: send the tools they call in tools too.', 'tools');
  }
  // A strict tool's arguments are enforced by OpenAI's structured outputs; Anthropic's SDK has no such flag.
  const strictTool = ai.provider === 'anthropic' ? (body.tools ?? []).findIndex((t) => t.function.strict) : -1;
  if (strictTool >= 0) throw notHonoured(`tools.${strictTool}.function.strict`, ai.provider);
  const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined);
  const settings: CallerSettings = {
    ...toolSettings(body),
    ...(body.response_format ? { responseFormat: responseFormat(body) } : {}),
    ...(stop?.length ? { stopSequences: stop } : {}),
    ...(body.seed != null ? { seed: body.seed } : {}),
    ...(body.top_p != null ? { topP: body.top_p } : {}),
    ...(body.frequency_penalty != null ? { frequencyPenalty: body.frequency_penalty } : {}),
    ...(body.presence_penalty != null ? { presencePenalty: body.presence_penalty } : {}),
    ...(body.logprobs ? { logprobs: { top: body.top_logprobs ?? 0 } } : {}),
    ...(body.user != null ? { user: body.user } : {}),
  };
  if (body.top_logprobs != null && !body.logprobs) {
    throw invalidRequest('top_logprobs needs logprobs: true.', 'top_logprobs');
  }
  return settings;
}
