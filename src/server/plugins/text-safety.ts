import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { jsonDepth } from '../lib/json-depth';
import { isStorableText } from '../lib/storable-text';

export const UNSAFE_TEXT_MESSAGE = 'Text must not contain NUL characters or broken Unicode (lone surrogates)';

/** Far deeper than any request Botty takes (a chat's messages are 4 levels deep), far below a stack's depth. */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `JSON must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`;

/** The path to the first string (key or value) that cannot be stored; walked with a stack, not recursion. */
function findUnsafeText(root: unknown): string[] | null {
  const pending: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return path;
    } else if (value && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
      // Reversed onto the stack, so the first field in the body is the first one reported.
      for (const [key, item] of entries.reverse()) {
        pending.push({ value: item, path: [...path, key] });
        if (!Array.isArray(value)) pending.push({ value: key, path });
      }
    }
  }
  return null;
}

/**
 * Every request's JSON body, query and path parameters are checked before validation, so no route can hand the
 * database a string it cannot store: a 400 naming the field, the same shape as any validation error. JSON nested
 * beyond MAX_JSON_DEPTH is refused while parsing, before anything walks it.
 */
export const textSafetyPlugin = fp(async (app: FastifyInstance) => {
  // Fastify's own parser, with its defaults (refuse `__proto__` and `constructor.prototype`).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const json = body as string;
    if (jsonDepth(json) > MAX_JSON_DEPTH) {
      done(new AppError('BAD_REQUEST', TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parseJson(request, json, done);
  });

  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findUnsafeText(part);
      if (path) {
        const field = path.join('.');
        throw new AppError('VALIDATION', UNSAFE_TEXT_MESSAGE, {
          errors: [{ path: field, message: UNSAFE_TEXT_MESSAGE }],
        });
      }
    }
  });
});
