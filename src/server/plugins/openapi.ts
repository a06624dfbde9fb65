import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { defaultSecurity, securitySchemes, transform, transformObject } from './openapi-document';

/** The OpenAPI document is generated from the same zod schemas that validate requests. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Botty API',
        version: '1.0.0',
        description: 'Create, train and chat with your own AI assistants.',
      },
      // Paths are absolute (/api, /v1, /mcp): the server is wherever this document was fetched from.
      servers: [{ url: '/', description: 'This Botty instance' }],
      components: { securitySchemes },
      security: defaultSecurity,
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
