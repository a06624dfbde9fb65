import type { FastifyPluginOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The OpenAPI security entry of a signed-in route; the scheme is declared in openapi.ts. */
const BEARER = [{ bearer: [] }];

/**
 * Wraps route declarations that need a signed-in caller. Every route declared inside gets the `requireUser`
 * check onRequest (401 before the body is parsed or validated, so an anonymous caller never learns what a valid
 * body looks like) and the bearer `security` entry in the OpenAPI document. Registering the result makes its
 * own encapsulated context, so the hook never reaches routes declared outside it.
 */
export function signedInRoutes<Options extends FastifyPluginOptions>(
  routes: FastifyPluginAsyncZod<Options>,
): FastifyPluginAsyncZod<Options> {
  return async (app, options) => {
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: BEARER };
    });
    app.addHook('onRequest', app.requireUser);
    await routes(app, options);
  };
}
