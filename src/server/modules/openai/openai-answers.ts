import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { TokenLogprob } from '../../ai/openai-chat-stream';
import { isoNow } from '../../lib/clock';
import { openSse, type SendOptions } from '../chat/sse';
import { OpenAiError, toOpenAiError } from './openai-errors';
import type { ChatCompletion, FinishReason } from './openai.schemas';
import { complete, usageOf, type Completion, type CompletionRequest, type OpenAiDeps } from './openai.service';

type Request = Omit<CompletionRequest, 'signal'>;

/** Stands for a token's text in the chunk cut around it; no other field of a chunk can hold it. */
const TEXT_SLOT = '\u0000';
const TEXT: SendOptions = { text: true };

const answerIds = (deps: OpenAiDeps) => ({
  id: `chatcmpl-${randomUUID()}`,
  created: Math.floor(Date.parse(isoNow(deps.clock)) / 1000),
});

/** `botty_sources`, only on answers that were given sources. */
const sourcesField = (completion: Completion) =>
  completion.sources.length ? { botty_sources: completion.sources } : {};

/** The whole answer as one chat.completion. */
export async function answerCompletion(deps: OpenAiDeps, request: Request, reply: FastifyReply) {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  let content = '';
  const logprobs: TokenLogprob[] = [];
  const done = await complete(
    deps,
    { ...request, signal: gone.signal },
    {
      onText: (text) => (content += text),
      ...(request.settings.logprobs ? { onLogprobs: (tokens: TokenLogprob[]) => logprobs.push(...tokens) } : {}),
    },
  );
  const answer: ChatCompletion = {
    ...answerIds(deps),
    object: 'chat.completion',
    model: request.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          // Only calls, no words: OpenAI's content is null then.
          content: content || (done.toolCalls.length ? null : ''),
          refusal: null,
          ...(done.toolCalls.length ? { tool_calls: done.toolCalls } : {}),
        },
        logprobs: request.settings.logprobs ? { content: logprobs, refusal: null } : null,
        finish_reason: done.finishReason,
      },
    ],
    usage: usageOf(done.usage),
    ...sourcesField(done),
  };
  return answer;
}

/**
 * The answer as chat.completion.chunk events: the text as it comes, then the calls of the caller's tools (each
 * its name, then its arguments), the finish reason with `botty_sources`, the usage when asked, and [DONE].
 */
export async function streamCompletion(deps: OpenAiDeps, request: Request, reply: FastifyReply) {
  const { id, created } = answerIds(deps);
  const { body } = request;
  const includeUsage = Boolean(body.stream_options?.include_usage);
  const channel = openSse(reply);
  const data = (payload: unknown, options?: SendOptions) =>
    channel.write(`data: ${JSON.stringify(payload)}\n\n`, options);
  const chunkOf = (choices: unknown[], usage: unknown = null, extra: object = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices,
    // With include_usage, every chunk carries `usage`: null until the last one, which has no choices.
    ...(includeUsage ? { usage } : {}),
    ...extra,
  });
  const chunk = (choices: unknown[], usage: unknown = null, extra: object = {}, options?: SendOptions) =>
    data(chunkOf(choices, usage, extra), options);
  const choice = (delta: object, finishReason: FinishReason | null = null, logprobs: object | null = null) => ({
    index: 0,
    delta,
    logprobs,
    finish_reason: finishReason,
  });
  // A token's chunk is the same JSON around its text, cut once here: per token, only the text is serialised.
  const [beforeText, afterText] = JSON.stringify(chunkOf([choice({ content: TEXT_SLOT })])).split(
    JSON.stringify(TEXT_SLOT),
  );
  // Log probabilities (only when asked for) arrive just before their text, and go out in its chunk.
  let logprobs: TokenLogprob[] | null = null;
  const onText = (text: string) => {
    // Text may leave with the text after it (TEXT_GAP_MS), each token still a chunk of its own.
    if (logprobs === null) return channel.write(`data: ${beforeText}${JSON.stringify(text)}${afterText}\n\n`, TEXT);
    chunk([choice({ content: text }, null, { content: logprobs, refusal: null })], null, {}, TEXT);
    logprobs = null;
  };
  chunk([choice({ role: 'assistant', content: '' })]);
  try {
    const done = await complete(
      deps,
      { ...request, signal: channel.gone },
      {
        onText,
        ...(request.settings.logprobs ? { onLogprobs: (tokens: TokenLogprob[]) => (logprobs = tokens) } : {}),
      },
    );
    for (const [index, call] of done.toolCalls.entries()) {
      const { name, arguments: args } = call.function;
      chunk([choice({ tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: '' } }] })]);
      chunk([choice({ tool_calls: [{ index, function: { arguments: args } }] })]);
    }
    chunk([choice({}, done.finishReason)], null, sourcesField(done));
    if (includeUsage) chunk([], usageOf(done.usage));
    channel.write('data: [DONE]\n\n');
  } catch (err) {
    // The status went out with the headers; OpenAI clients raise an `error` payload as an APIError.
    const known = err instanceof Error ? toOpenAiError(err) : null;
    if (!known) request.log.error({ err }, 'API completion stream failed');
    data((known ?? new OpenAiError(500, 'Something went wrong on our side.', 'server_error')).toJSON());
  }
  channel.end();
  return reply;
}
