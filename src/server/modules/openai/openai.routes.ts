import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoNow } from '../../lib/clock';
import { bearerToken } from '../../plugins/auth-guard';
import { limitBy, type RateLimit } from '../../plugins/rate-limit';
import { openSse } from '../chat/sse';
import type { ApiKeyRow } from '../keys/keys.repository';
import { invalidApiKey, OpenAiError, toOpenAiError, useOpenAiErrors } from './openai-errors';
import { apiBodyLimit, MAX_IMAGES_PER_REQUEST } from './openai-images';
import {
  chatCompletionBodySchema,
  chatCompletionSchema,
  modelListSchema,
  openAiErrorSchema,
  type ChatCompletion,
} from './openai.schemas';
import {
  authenticateApiKey,
  complete,
  listModels,
  readMessages,
  requireModelBot,
  usageOf,
  type OpenAiDeps,
} from './openai.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a request under /v1, once it passed the key check. */
    apiKey: ApiKeyRow | null;
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

/** Stands for a token's text in the chunk cut around it; no other field of a chunk can hold it. */
const TEXT_SLOT = '\u0000';

const STATELESS =
  'Stateless, like OpenAI’s API: the messages you send are the whole conversation, and nothing of the exchange is stored in Botty (only the bot’s usage count goes up).';

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

  app.post(
    '/chat/completions',
    {
      preHandler: perKey,
      // Images come inline as base64 data URLs, so the body may be far larger than the rest of the API allows.
      bodyLimit: apiBodyLimit(deps.imageBytes),
      schema: {
        tags,
        security,
        summary: 'Chat with a bot; streamed as chat.completion.chunk events ending with [DONE] when `stream` is true',
        description: `The bot's own prompt always comes first; system messages you send are added after it. ${IMAGES} ${STATELESS}`,
        body: chatCompletionBodySchema,
        response: { 200: chatCompletionSchema, ...errors, ...imageErrors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const key = apiKeyOf(request);
      const bot = await requireModelBot(deps, key, body.model);
      const messages = await readMessages(body.messages, bot, deps);
      await deps.usage.admit({ ownerId: bot.userId, shared: false });
      const id = `chatcmpl-${randomUUID()}`;
      const created = Math.floor(Date.parse(isoNow(deps.clock)) / 1000);
      const completion = { key, bot, body, messages, log: request.log };

      if (!body.stream) {
        const gone = new AbortController();
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        let content = '';
        const usage = await complete(deps, { ...completion, signal: gone.signal }, (text) => (content += text));
        const answer: ChatCompletion = {
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [
            { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
          ],
          usage: usageOf(usage),
        };
        return answer;
      }

      const includeUsage = Boolean(body.stream_options?.include_usage);
      const channel = openSse(reply);
      const data = (payload: unknown) => channel.write(`data: ${JSON.stringify(payload)}\n\n`);
      const chunkOf = (choices: unknown[], usage: unknown = null) => ({
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices,
        // With include_usage, every chunk carries `usage`: null until the last one, which has no choices.
        ...(includeUsage ? { usage } : {}),
      });
      const chunk = (choices: unknown[], usage: unknown = null) => data(chunkOf(choices, usage));
      const choice = (delta: object, finishReason: 'stop' | null = null) => ({
        index: 0,
        delta,
        logprobs: null,
        finish_reason: finishReason,
      });
      // A token's chunk is the same JSON around its text, cut once here: per token, only the text is serialised.
      const [beforeText, afterText] = JSON.stringify(chunkOf([choice({ content: TEXT_SLOT })])).split(
        JSON.stringify(TEXT_SLOT),
      );
      chunk([choice({ role: 'assistant', content: '' })]);
      try {
        const usage = await complete(deps, { ...completion, signal: channel.gone }, (text) =>
          channel.write(`data: ${beforeText}${JSON.stringify(text)}${afterText}\n\n`),
        );
        chunk([choice({}, 'stop')]);
        if (includeUsage) chunk([], usageOf(usage));
        channel.write('data: [DONE]\n\n');
      } catch (err) {
        // The status went out with the headers; OpenAI clients raise an `error` payload as an APIError.
        const known = err instanceof Error ? toOpenAiError(err) : null;
        if (!known) request.log.error({ err }, 'API completion stream failed');
        data((known ?? new OpenAiError(500, 'Something went wrong on our side.', 'server_error')).toJSON());
      }
      channel.end();
      return reply;
    },
  );
};
