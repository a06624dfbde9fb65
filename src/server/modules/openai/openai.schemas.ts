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

const MESSAGE_ROLE_MESSAGE = 'Each message needs a role of system, developer, user or assistant';
export const chatMessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant'], { error: MESSAGE_ROLE_MESSAGE }),
    content: z.union([z.string(), z.array(contentPartSchema)]).nullish(),
  })
  .loose();
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** OpenAI's request body; fields we do not use (tools, logprobs, user, …) are accepted and ignored. */
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

export const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop'),
    }),
  ),
  usage: usageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
