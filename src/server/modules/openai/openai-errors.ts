import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { formatBytes } from '@shared/format-bytes';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ReplyFailure } from '../../ai/tasks/chat-reply';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../db/unavailable';
import { AppError } from '../../lib/errors';
import { fieldErrors } from '../../plugins/errors';

/** An error as OpenAI's API reports it, so OpenAI clients raise their usual exceptions. */
export class OpenAiError extends Error {
  /** Sent as Retry-After when set (a busy model): OpenAI clients wait that long before their own retry. */
  retryAfterSeconds: number | null = null;

  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'OpenAiError';
  }

  toJSON() {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const invalidRequest = (message: string, param: string | null = null) =>
  new OpenAiError(400, message, 'invalid_request_error', null, param);

export const invalidApiKey = () =>
  new OpenAiError(
    401,
    'Invalid API key: it is unknown, revoked or expired. Create one in Botty under Settings → API keys.',
    'invalid_request_error',
    'invalid_api_key',
  );

export const modelNotFound = (model: string) =>
  new OpenAiError(
    404,
    `The model '${model}' does not exist or this key cannot use it. GET /v1/models lists the bots this key reaches.`,
    'invalid_request_error',
    'model_not_found',
    'model',
  );

export const upstreamError = (message: string) => new OpenAiError(502, message, 'api_error', 'upstream_error');

const DEFAULT_RETRY_AFTER_SECONDS = 5;

/**
 * A failed reply as OpenAI would answer it: the model's provider busy → its 429 (rate limit) or 503 (overloaded)
 * with its Retry-After, an image too large for the model's provider → 413, anything else → 502.
 */
export function replyFailed(message: string, failure: ReplyFailure | null): OpenAiError {
  if (failure?.kind === 'image-too-large') {
    return new OpenAiError(413, message, 'invalid_request_error', 'image_too_large', 'messages');
  }
  if (failure?.kind === 'invalid-request') return invalidRequest(message, failure.param);
  if (failure?.kind !== 'busy') return upstreamError(message);
  const error =
    failure.status === 429
      ? new OpenAiError(429, message, 'requests', 'rate_limit_exceeded')
      : new OpenAiError(503, message, 'server_error', 'overloaded');
  // Botty has already retried; a client told nothing would come straight back.
  error.retryAfterSeconds = failure.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  return error;
}

/** A path or method /v1 does not have, as OpenAI answers it (before the key is looked at). */
export const unknownUrl = (request: Pick<FastifyRequest, 'method' | 'url'>) =>
  new OpenAiError(
    404,
    `Invalid URL (${request.method} ${request.url.split('?')[0]})`,
    'invalid_request_error',
    'unknown_url',
  );

/** The same failures the rest of the API knows, in OpenAI's error shape; `bodyLimit`: the route's, for a 413. */
export function toOpenAiError(error: FastifyError | Error, bodyLimit?: number): OpenAiError | null {
  if (error instanceof OpenAiError) return error;
  if (error instanceof AppError) {
    if (error.code === 'RATE_LIMITED') {
      const limited = new OpenAiError(429, error.message, 'requests', 'rate_limit_exceeded');
      // A daily limit says when it resets.
      if (typeof error.details.retryAfter === 'number') limited.retryAfterSeconds = error.details.retryAfter;
      return limited;
    }
    if (error.code === 'UNAUTHENTICATED') return invalidApiKey();
    if (error.status < 500) return new OpenAiError(error.status, error.message, 'invalid_request_error');
    return null;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = fieldErrors(error)[0];
    return invalidRequest(first?.message ?? 'Invalid request', first?.path || null);
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status === 413) {
    const limit = bodyLimit ? `: requests may be at most ${formatBytes(bodyLimit)}` : '';
    return new OpenAiError(413, `The request is too large${limit}.`, 'invalid_request_error', 'request_too_large');
  }
  if (status >= 400 && status < 500) return new OpenAiError(status, error.message, 'invalid_request_error');
  if (isDatabaseUnavailable(error)) return new OpenAiError(503, DATABASE_UNAVAILABLE_MESSAGE, 'server_error');
  return null;
}

/** For the routes under /v1: every failure answers in OpenAI's shape; unexpected ones are logged. */
export function useOpenAiErrors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const known = toOpenAiError(error, request.routeOptions.bodyLimit);
    if (!known) request.log.error({ err: error }, 'request failed');
    const answer = known ?? new OpenAiError(500, 'Something went wrong on our side. Please try again.', 'server_error');
    if (answer.retryAfterSeconds !== null) void reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.status(answer.status).send(answer.toJSON());
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send(unknownUrl(request).toJSON()));
}
