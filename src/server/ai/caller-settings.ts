import type {
  LanguageModelV2CallOptions,
  LanguageModelV2FunctionTool,
  LanguageModelV2ToolChoice,
  SharedV2ProviderOptions,
} from '@ai-sdk/provider';
import type { LlmProvider } from '../config';

type JsonFormat = Extract<NonNullable<LanguageModelV2CallOptions['responseFormat']>, { type: 'json' }>;

/**
 * What a caller of the OpenAI-compatible API asks of the model beyond the prompt, in the AI SDK's terms. Every
 * field is one the bot's provider honours (`PROVIDER_PARAMETERS`): /v1 refuses the others before asking.
 */
export interface CallerSettings {
  /** The caller's own function tools: offered beside the bot's, never run here (a call of one ends the reply). */
  tools?: LanguageModelV2FunctionTool[];
  toolChoice?: LanguageModelV2ToolChoice;
  parallelToolCalls?: boolean;
  /** JSON mode, or a JSON schema (`strict`: the provider enforces it exactly, OpenAI's structured outputs). */
  responseFormat?: JsonFormat & { strict?: boolean };
  stopSequences?: string[];
  seed?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** Log probabilities of the output tokens, each with its `top` most likely alternatives. */
  logprobs?: { top: number };
  user?: string;
}

/** The OpenAI-compatible API's parameters whose support differs between providers. */
export const CALLER_PARAMETERS = [
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format: json_object',
  'response_format: json_schema',
  'stop',
  'seed',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'logprobs',
  'user',
] as const;
export type CallerParameter = (typeof CALLER_PARAMETERS)[number];

const all = (honoured: boolean) =>
  Object.fromEntries(CALLER_PARAMETERS.map((p) => [p, honoured])) as Record<CallerParameter, boolean>;

/**
 * Which parameters each provider honours; /v1 answers 400 naming any other (never drops one silently), and
 * README.md shows this table (`parameterTable`). OpenAI and OpenAI-compatible servers get them as OpenAI's
 * wire format has them (a compatible server may still refuse one: its error comes back). Anthropic through
 * @ai-sdk/anthropic: a JSON schema becomes a forced tool, `user` its metadata.user_id, no `parallel_tool_calls`
 * its disable_parallel_tool_use; it has no seed, penalties, log probabilities, nor JSON mode without a schema.
 * Offline there is no model: the reply is Botty's fixed notice, so tools are accepted and never called and the
 * sampling settings have nothing to act on, but JSON and log probabilities cannot be given.
 */
export const PROVIDER_PARAMETERS: Record<LlmProvider, Record<CallerParameter, boolean>> = {
  openai: all(true),
  'openai-compatible': all(true),
  anthropic: {
    ...all(true),
    'response_format: json_object': false,
    seed: false,
    frequency_penalty: false,
    presence_penalty: false,
    logprobs: false,
  },
  offline: {
    ...all(true),
    'response_format: json_object': false,
    'response_format: json_schema': false,
    logprobs: false,
  },
};

const PROVIDER_NAMES: Record<LlmProvider, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  offline: 'Offline (no model)',
};
export const providerName = (provider: LlmProvider) => PROVIDER_NAMES[provider];

/** The table in README.md ("OpenAI-compatible API: parameters per provider"), from `PROVIDER_PARAMETERS`. */
export function parameterTable(): string {
  const providers = Object.keys(PROVIDER_NAMES) as LlmProvider[];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(['Parameter', ...providers.map(providerName)]),
    row(['---', ...providers.map(() => ':-:')]),
    ...CALLER_PARAMETERS.map((p) =>
      row([`\`${p}\``, ...providers.map((provider) => (PROVIDER_PARAMETERS[provider][p] ? 'yes' : 'no'))]),
    ),
  ].join('\n');
}

/**
 * The call options that carry the caller's settings to this provider: the SDK's own fields, and what it takes
 * as provider options (read by Botty's chat completions reader too, for OpenAI and compatible servers).
 */
export function callerCallOptions(
  provider: LlmProvider,
  settings: CallerSettings | undefined,
): Pick<
  LanguageModelV2CallOptions,
  'responseFormat' | 'stopSequences' | 'seed' | 'topP' | 'frequencyPenalty' | 'presencePenalty' | 'providerOptions'
> {
  if (!settings) return {};
  const { tools: _, toolChoice: __, responseFormat, logprobs, user, parallelToolCalls, ...sampling } = settings;
  const providerOptions: SharedV2ProviderOptions =
    provider === 'anthropic'
      ? {
          anthropic: {
            ...(user !== undefined ? { metadata: { userId: user } } : {}),
            ...(parallelToolCalls === false ? { disableParallelToolUse: true } : {}),
          },
        }
      : {
          openai: {
            ...(user !== undefined ? { user } : {}),
            ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
            ...(logprobs ? { logprobs: logprobs.top || true } : {}),
            ...(responseFormat?.strict !== undefined ? { strictJsonSchema: responseFormat.strict } : {}),
          },
        };
  const format = responseFormat && {
    type: 'json' as const,
    schema: responseFormat.schema,
    name: responseFormat.name,
    description: responseFormat.description,
  };
  return { ...sampling, ...(format ? { responseFormat: format } : {}), providerOptions };
}
