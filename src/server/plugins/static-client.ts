import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';

/** The JSON API and the OpenAI-compatible API under /v1: never answered with the client's page. */
const isApiPath = (url: string) => /^\/(?:api|v1)(?:[/?]|$)/.test(url);
/** Shared conversation snapshots are for people with the link, not for search engines. */
const isSnapshotPage = (url: string) => url.startsWith('/s/');

/**
 * Serves the built client with history fallback: unknown non-API paths get index.html so the client router
 * can answer them (its 404 page included); unknown /api paths get a JSON 404.
 */
export const staticClientPlugin = fp(async (app: FastifyInstance, options: { root: string }) => {
  const hasClient = existsSync(join(options.root, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: options.root,
      wildcard: false,
      index: false,
      // The header is ours alone: @fastify/static's own 'public, max-age=0' was written after setHeaders, so the
      // fingerprinted assets were asked for again (a 304 each) on every page load — 70 of them for the chat page.
      cacheControl: false,
      setHeaders(res, path) {
        // Vite fingerprints everything under assets/, so those can be cached for good; the rest is checked.
        res.setHeader(
          'cache-control',
          path.includes(`${join('assets', '')}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=0',
        );
        // The widget's loader is for other sites' pages, which the default same-origin policy would refuse it to.
        if (path === join(options.root, 'embed.js')) res.setHeader('cross-origin-resource-policy', 'cross-origin');
      },
    });
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      // The catch-all would otherwise answer unknown API paths with the client's HTML and a 200.
      if (isApiPath(request.url)) return reply.callNotFound();
      const path = request.params as { '*': string };
      const file = path['*'];
      if (file && existsSync(join(options.root, file)) && !file.includes('..')) return reply.sendFile(file);
      if (isSnapshotPage(request.url)) reply.header('x-robots-tag', 'noindex');
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || !hasClient) {
      throw new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
    }
    return reply.status(404).send({ message: 'Not found' });
  });
});
