import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { isStorableText } from '../lib/storable-text';

export const UNSAFE_TEXT_MESSAGE = 'Text must not contain NUL characters or broken Unicode (lone surrogates)';

function findUnsafeText(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnsafeText(item, [...path, String(i)]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnsafeText(key, path) ?? findUnsafeText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Every request's JSON body, query and path parameters are checked before validation, so no route can hand the
 * database a string it cannot store: a 400 naming the field, the same shape as any validation error.
 */
export const textSafetyPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findUnsafeText(part, []);
      if (path) {
        const field = path.join('.');
        throw new AppError('VALIDATION', UNSAFE_TEXT_MESSAGE, {
          errors: [{ path: field, message: UNSAFE_TEXT_MESSAGE }],
        });
      }
    }
  });
});
