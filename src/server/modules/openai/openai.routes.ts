import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatBytes } from '@shared/format-bytes';
import { bearerToken } from '../../plugins/auth-guard';
import { limitBy, type RateLimit } from '../../plugins/rate-limit';
import type { AuthenticatedKey } from '../keys/keys.repository';
import { answerCompletion, streamCompletion } from './openai-answers';
import { invalidApiKey, unknownUrl, useOpenAiErrors } from './openai-errors';
import { apiBodyLimit, MAX_IMAGES_PER_REQUEST } from './openai-images';
import { readMessages } from './openai-messages';
import { callerSettingsOf } from './openai-parameters';
import {
  chatCompletionBodySchema,
  chatCompletionSchema,
  modelListSchema,
  modelSchema,
  openAiErrorSchema,
} from './openai.schemas';
import {
  admitCompletion,
  authenticateApiKey,
  getModel,
  listModels,
  requireModelBot,
  type OpenAiDeps,
} from './openai.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a request under /v1, once it passed the key check. */
    apiKey: AuthenticatedKey | null;
  }
}

const apiKeyOf = (request: FastifyRequest) => {
  if (!request.apiKey) throw invalidApiKey();
  return request.apiKey;
};

const tags = ['OpenAI-compatible API'];
/** Botty API keys (Settings → API keys), not session tokens. */
const security = [{ bearer: [] }];
const errors = { 400: openAiErrorSchema, 401: openAiErrorSchema, 404: openAiErrorSchema, 429: openAiErrorSchema };
const imageErrors = { 413: openAiErrorSchema, 415: openAiErrorSchema };
/** The route that answers every other path and method under /v1 (OpenAI's 404 `Invalid URL`), whatever the key. */
const UNKNOWN_URL = '/*';

const STATELESS =
  'Stateless, like OpenAI’s API: the messages you send are the whole conversation, and nothing of the exchange is stored in Botty (only the bot’s usage count goes up).';

const TOOLS =
  'The parameters OpenAI documents are passed to the model: `tools`, `tool_choice`, `parallel_tool_calls`, `response_format` (`json_object`, `json_schema`), `stop`, `seed`, `top_p`, `frequency_penalty`, `presence_penalty`, `logprobs`/`top_logprobs`, `user`; one the bot’s model provider cannot honour answers 400 with `param` naming it (README, “OpenAI-compatible API: parameters per provider”). Your tools are yours to run: a call of one ends the answer with `tool_calls` (streamed as `delta.tool_calls`) and `finish_reason: "tool_calls"`; send its result back as a `role: "tool"` message. The bot’s own tools (web research, MCP servers) run inside Botty; a tool of yours with one of their names answers 400 (`param: "tools"`).';

const SOURCES =
  'An answer given sources (the bot’s knowledge, pages it read) lists them in `botty_sources` (`n`, `kind`, `title`, `url` when there is one, `snippet`), so a citation `[n]` in the text can be resolved: on the completion, or on the chunk with the `finish_reason` when streamed.';

const bodyCap = (limit: number) =>
  `Request bodies may be at most ${formatBytes(limit)} (1 MB of text and room for the images); a larger one answers 413.`;

const IMAGES = `Bots with the Image understanding capability read \`image_url\` parts, as base64 data URLs or public http(s) URLs (PNG, JPEG, GIF or WebP, typed from their bytes, at most ${MAX_IMAGES_PER_REQUEST} a request, each no larger than images attached in Botty).`;

/**
 * The OpenAI-compatible API under /v1, for OpenAI clients pointed at `{origin}/v1` with a Botty API key. Each
 * of the key's bots is a model `bot-{id}` that answers with its own prompt, settings, knowledge and web research.
 */
export const openAiRoutes: FastifyPluginAsyncZod<{ deps: OpenAiDeps; rateLimit: RateLimit }> = async (
  app,
  { deps, rateLimit },
) => {
  useOpenAiErrors(app);
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    // OpenAI answers an unknown URL as such, key or not.
    const route = request.routeOptions.url;
    if (
      request.is404 ||
      route === undefined ||
      route.endsWith(UNKNOWN_URL) ||
      route.replace(/\/$/, '') === app.prefix
    ) {
      return;
    }
    const key = bearerToken(request);
    request.apiKey = key ? await authenticateApiKey(deps, key) : null;
    if (!request.apiKey) throw invalidApiKey();
  });
  const perKey = limitBy(app, rateLimit, 'api-key', (request) => String(apiKeyOf(request).id));

  app.get(
    '/models',
    {
      preHandler: perKey,
      schema: {
        tags,
        security,
        summary: 'The bots this API key reaches, as models `bot-{id}` (with the bot’s name)',
        response: { 200: modelListSchema, ...errors },
      },
    },
    async (request) => listModels(deps, apiKeyOf(request)),
  );

  app.get(
    '/models/:model',
    {
      preHandler: perKey,
      schema: {
        tags,
        security,
        summary: 'One bot this API key reaches, as the model `bot-{id}`; 404 for any other',
        params: z.object({ model: z.string() }),
        response: { 200: modelSchema, ...errors },
      },
    },
    async (request) => getModel(deps, apiKeyOf(request), request.params.model),
  );

  const bodyLimit = apiBodyLimit(deps.imageBytes);
  app.post(
    '/chat/completions',
    {
      preHandler: perKey,
      // Images come inline as base64 data URLs, so the body may be far larger than the rest of the API allows.
      bodyLimit,
      schema: {
        tags,
        security,
        summary: 'Chat with a bot; streamed as chat.completion.chunk events ending with [DONE] when `stream` is true',
        description: `The bot's own prompt always comes first; system messages you send are added after it. ${TOOLS} ${SOURCES} ${IMAGES} ${bodyCap(bodyLimit)} ${STATELESS}`,
        body: chatCompletionBodySchema,
        response: { 200: chatCompletionSchema, ...errors, ...imageErrors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const key = apiKeyOf(request);
      const bot = await requireModelBot(deps, key, body.model);
      const messages = await readMessages(body.messages, bot, deps);
      // Resolved here, so a parameter its provider cannot honour is refused before anything is asked.
      const model = await deps.models.resolve('chat', bot.config.model);
      const settings = callerSettingsOf(body, model.ai, messages.hasToolCalls);
      await admitCompletion(deps, key, bot);
      const completion = { key, bot, body, messages, model, settings, log: request.log };
      return body.stream ? streamCompletion(deps, completion, reply) : answerCompletion(deps, completion, reply);
    },
  );

  // Last: any other path or method under /v1, in OpenAI's shape rather than the app's client page or 404.
  app.all(UNKNOWN_URL, { schema: { hide: true } }, async (request) => {
    throw unknownUrl(request);
  });
  app.all('/', { schema: { hide: true } }, async (request) => {
    throw unknownUrl(request);
  });
};
