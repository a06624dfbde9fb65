import { z } from 'zod';

/** The largest `max_tokens` passed to the model; larger asks are refused rather than silently cut. */
export const MAX_OUTPUT_TOKENS = 32_768;

const MAX_TOKENS_MESSAGE = `max_tokens must be a whole number from 1 to ${MAX_OUTPUT_TOKENS}`;
const maxTokensSchema = z
  .number({ error: MAX_TOKENS_MESSAGE })
  .int(MAX_TOKENS_MESSAGE)
  .min(1, MAX_TOKENS_MESSAGE)
  .max(MAX_OUTPUT_TOKENS, MAX_TOKENS_MESSAGE)
  .nullish();

const TEMPERATURE_MESSAGE = 'temperature must be a number from 0 to 2';

/**
 * Text and `image_url` parts are read (images as base64 data URLs, for bots that understand images); other kinds
 * (audio, files) are refused by the service with a clear message.
 */
const contentPartSchema = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    image_url: z
      .object({ url: z.string({ error: 'image_url.url must be a string' }) })
      .loose()
      .optional(),
  })
  .loose();

/** A call of a function tool: an assistant message's in a request, the answer's `message.tool_calls`. */
const toolCallSchema = z.object({
  id: z.string({ error: 'A tool call needs an id' }),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const MESSAGE_ROLE_MESSAGE = 'Each message needs a role of system, developer, user, assistant or tool';
export const chatMessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool'], { error: MESSAGE_ROLE_MESSAGE }),
    content: z.union([z.string(), z.array(contentPartSchema)]).nullish(),
    /** An assistant message's calls of the caller's tools (an agent loop sends them back with the results). */
    tool_calls: z.array(toolCallSchema.extend({ type: z.literal('function').optional() })).nullish(),
    /** A tool message: the call it answers. */
    tool_call_id: z.string().nullish(),
  })
  .loose();
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const TOOL_NAME_MESSAGE = 'A tool name is 1 to 64 letters, digits, underscores or dashes';
const functionToolSchema = z
  .object({
    type: z.literal('function', { error: "Only tools of type 'function' are supported" }),
    function: z
      .object({
        name: z.string({ error: TOOL_NAME_MESSAGE }).regex(/^[A-Za-z0-9_-]{1,64}$/, TOOL_NAME_MESSAGE),
        description: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()).nullish(),
        strict: z.boolean().nullish(),
      })
      .loose(),
  })
  .loose();

const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
  ],
  { error: "tool_choice is 'none', 'auto', 'required' or { type: 'function', function: { name } }" },
);

const responseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({
          name: z.string(),
          description: z.string().nullish(),
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        })
        .loose(),
    }),
  ],
  { error: "response_format.type is 'text', 'json_object' or 'json_schema'" },
);

const ranged = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number from ${min} to ${max}` })
    .min(min, `${name} must be a number from ${min} to ${max}`)
    .max(max, `${name} must be a number from ${min} to ${max}`)
    .nullish();

/**
 * OpenAI's request body. The parameters below are passed to the model when the bot's provider honours them
 * (src/server/ai/caller-settings.ts), else refused; other fields are accepted and have no effect, except the
 * ones `UNSUPPORTED_FIELDS` (openai-parameters.ts) refuses.
 */
export const chatCompletionBodySchema = z
  .object({
    model: z.string({ error: 'model is required' }).min(1, 'model is required'),
    messages: z
      .array(chatMessageSchema, { error: 'messages must be a list of messages' })
      .min(1, 'messages must hold at least one message'),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().nullish() }).loose().nullish(),
    max_tokens: maxTokensSchema,
    max_completion_tokens: maxTokensSchema,
    temperature: z
      .number({ error: TEMPERATURE_MESSAGE })
      .min(0, TEMPERATURE_MESSAGE)
      .max(2, TEMPERATURE_MESSAGE)
      .nullish(),
    n: z.literal(1, { error: 'Only n = 1 is supported' }).nullish(),
    tools: z.array(functionToolSchema, { error: 'tools must be a list of function tools' }).max(128).nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    response_format: responseFormatSchema.nullish(),
    stop: z.union([z.string(), z.array(z.string()).max(4, 'stop holds at most 4 sequences')]).nullish(),
    seed: z.number().int('seed must be a whole number').nullish(),
    top_p: ranged('top_p', 0, 1),
    frequency_penalty: ranged('frequency_penalty', -2, 2),
    presence_penalty: ranged('presence_penalty', -2, 2),
    logprobs: z.boolean().nullish(),
    top_logprobs: z.number().int().min(0).max(20, 'top_logprobs must be a whole number from 0 to 20').nullish(),
    user: z.string().nullish(),
  })
  .loose();
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

export const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** Ours: the bot's name, since the id is only `bot-{id}`. */
  name: z.string(),
});
export const modelListSchema = z.object({ object: z.literal('list'), data: z.array(modelSchema) });
export type Model = z.infer<typeof modelSchema>;

export const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** Ours: the sources the bot was given (its knowledge's passages, pages it read), so `[n]` in the text resolves. */
export const bottySourcesSchema = z.array(
  z.object({
    n: z.number().int(),
    kind: z.enum(['file', 'web', 'tool']),
    title: z.string(),
    url: z.string().optional(),
    snippet: z.string(),
  }),
);
export type BottySources = z.infer<typeof bottySourcesSchema>;

export const finishReasonSchema = z.enum(['stop', 'length', 'tool_calls', 'content_filter']);
export type FinishReason = z.infer<typeof finishReasonSchema>;

const logprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number()).nullable(),
  top_logprobs: z.array(z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number()).nullable() })),
});

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        /** null when the reply is only calls of the caller's tools. */
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(toolCallSchema).optional(),
      }),
      logprobs: z.object({ content: z.array(logprobSchema), refusal: z.null() }).nullable(),
      finish_reason: finishReasonSchema,
    }),
  ),
  usage: usageSchema,
  botty_sources: bottySourcesSchema.optional(),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
