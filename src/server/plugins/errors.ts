import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable';
import { AppError } from '../lib/errors';
import { TOO_MANY_ATTEMPTS } from './rate-limit';

interface FieldError {
  path: string;
  message: string;
}

export function fieldErrors(error: {
  validation: { instancePath: string; message?: string; params: unknown }[];
}): FieldError[] {
  return error.validation.map((v) => {
    const issuePath = (v.params as { issue?: { path?: PropertyKey[] } }).issue?.path;
    const path = issuePath?.length
      ? issuePath.map(String).join('.')
      : v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return { path, message: v.message ?? 'Invalid value' };
  });
}

/** One place turns every failure into `{ message, code, requestId }`; 5xx details stay in the log. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const requestId = request.id;
    if (error instanceof AppError) {
      if (typeof error.details.retryAfter === 'number') reply.header('retry-after', String(error.details.retryAfter));
      return reply.status(error.status).send({ message: error.message, code: error.code, requestId, ...error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error);
      return reply
        .status(400)
        .send({ message: errors[0]?.message ?? 'Invalid request', code: 'VALIDATION', requestId, errors });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ message: TOO_MANY_ATTEMPTS, code: 'RATE_LIMITED', requestId });
    }
    if (status === 413) {
      return reply.status(413).send({ message: 'The request is too large.', code: 'PAYLOAD_TOO_LARGE', requestId });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type) carry safe messages.
      return reply.status(status).send({ message: error.message, code: 'BAD_REQUEST', requestId });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE', requestId });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL', requestId });
  });
});
