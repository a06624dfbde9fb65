import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** Everything the app loads is served by itself: scripts, styles, fonts and images come only from 'self'. */
const APP_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Radix and the scroll lock inject small <style> elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/** What a route may ask for instead of the app's headers (route option `config.securityHeaders`). */
export type SecurityHeaders = 'app' | 'framed';

const POLICIES: Record<SecurityHeaders, HelmetOptions> = {
  app: APP_POLICY,
  // A page that sets its own Content-Security-Policy, framed by the sites it names (X-Frame-Options cannot).
  framed: {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    frameguard: false,
    strictTransportSecurity: false,
  },
};

/**
 * Helmet's own value, sent only over HTTPS as RFC 6797 says: over plain HTTP it claims a TLS setup the server may
 * not have. Behind a TLS proxy `request.protocol` is https when X-Forwarded-Proto says so from a TRUST_PROXY hop.
 */
const HSTS = 'max-age=31536000; includeSubDomains';

declare module 'fastify' {
  interface FastifyContextConfig {
    securityHeaders?: SecurityHeaders;
  }
}

/**
 * Helmet's headers on every response. Each policy's middleware is built once: @fastify/helmet builds one per request,
 * re-reading the whole configuration, which cost 4% of a chat reply's server time (docs/perf/streaming-relay-diary.md
 * round 8).
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const middlewares = Object.fromEntries(
    Object.entries(POLICIES).map(([name, options]) => [name, helmet(options)]),
  ) as Record<SecurityHeaders, ReturnType<typeof helmet>>;
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    middlewares[request.routeOptions.config.securityHeaders ?? 'app'](request.raw, reply.raw, (error) =>
      done(error as Error | undefined),
    );
  });
});
