import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/*
 * The one place that completes the generated OpenAPI document, so that every route, including ones added later,
 * gets an operationId, a summary and its security without each route repeating them (decision 0040).
 */

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Json[];
  responses?: Record<string, Json>;
  [key: string]: unknown;
}

/** Signed-in routes (signed-in.ts) name the session scheme; it is the document's default. */
const SESSION = { bearer: [] };
/** /v1 (the OpenAI-compatible API) and /mcp take Botty API keys, not session tokens. */
const API_KEY = { apiKey: [] };
const takesApiKey = (path: string) => /^\/(v1|mcp)(\/|$)/.test(path);

export const securitySchemes = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The session token that POST /api/auth/login and POST /api/auth/register answer with.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A Botty API key (Settings → API keys), for the OpenAI-compatible API under /v1 and for /mcp.',
  },
} as const;
export const defaultSecurity = [SESSION];

/** Routes that read an upload with `readMultipartFile` declare `consumes: ['multipart/form-data']`: one `file`. */
const FILE_UPLOAD = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'The file, as the form field `file`.' } },
};

/** What a route that needs credentials answers without valid ones (plugins/errors.ts shapes it); /v1 has its own. */
const UNAUTHENTICATED = {
  description: 'Missing, unknown or expired credentials',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'code'],
        properties: { message: { type: 'string' }, code: { type: 'string', const: 'UNAUTHENTICATED' } },
      },
    },
  },
};

const SSE = 'text/event-stream';
const NDJSON = 'application/x-ndjson';
/**
 * Routes that take the response over and stream it (lib/streamed-response.ts), which their schemas cannot say:
 * the media type of their 200 and what it carries. `alongside` keeps the JSON answer documented as well.
 */
export const STREAMS: Record<string, { type: string; description: string; alongside?: boolean }> = {
  'POST /api/conversations/{id}/stream': { type: SSE, description: 'The reply as server-sent events.' },
  'GET /api/conversations/{id}/stream': { type: SSE, description: 'The running reply’s events after Last-Event-ID.' },
  'POST /api/conversations/{id}/regenerate': { type: SSE, description: 'The new reply as server-sent events.' },
  'POST /api/messages/{id}/edit': { type: SSE, description: 'The reply to the edited message as server-sent events.' },
  'POST /api/widget/{botId}/replies': { type: SSE, description: 'The reply as server-sent events.' },
  'POST /api/bots/preview-answers': { type: NDJSON, description: 'One JSON object per line, per query.' },
  'GET /api/bots/{id}/evaluations/{evaluationId}/events': {
    type: NDJSON,
    description: 'One JSON object per line: the stored results, then each new one as the run goes.',
  },
  'POST /v1/chat/completions': {
    type: SSE,
    alongside: true,
    description:
      'A chat.completion; with `stream: true`, server-sent events: a chat.completion.chunk per `data:`, then `data: [DONE]`.',
  },
  'POST /mcp': {
    type: SSE,
    alongside: true,
    description: 'JSON-RPC 2.0 answers, as JSON or as server-sent events, whichever the MCP client accepts.',
  },
};

const words = (text: string) =>
  text
    .replace(/\{(\w+)\}/g, 'by-$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && word !== 'api');

/** `GET /api/bots/{id}/versions` → `getBotsByIdVersions`: unique as long as method and path are. */
export function operationIdOf(method: string, path: string): string {
  return [method.toLowerCase(), ...words(path)]
    .map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join('');
}

/** The description's first sentence when it is short, else the operation's name in words. */
function summaryOf(operation: Operation, method: string, path: string): string {
  const sentence = operation.description?.match(/^[^.:;]+?(?=[.:;]\s|[.:;]?$)/)?.[0];
  if (sentence && sentence.length <= 100) return sentence;
  const [verb = '', ...rest] = [method, ...words(path)].map((word) => word.toLowerCase());
  return [verb[0]!.toUpperCase() + verb.slice(1), ...rest].join(' ');
}

/** Public routes say so (`security: []`); signed-in ones inherit the default; /v1 and /mcp take API keys. */
function securityOf(operation: Operation, path: string): Json[] | undefined {
  if (takesApiKey(path)) return [API_KEY];
  if (!operation.security) return [];
  const inherits = JSON.stringify(operation.security) === JSON.stringify(defaultSecurity);
  return inherits ? undefined : operation.security;
}

function documentStream(operation: Operation, stream: (typeof STREAMS)[string]) {
  const media = { schema: { type: 'string', description: stream.description } };
  const declared = operation.responses?.['200']?.content as Json | undefined;
  const json = stream.alongside ? (declared ?? { 'application/json': { schema: {} } }) : undefined;
  operation.responses = {
    ...operation.responses,
    200: { description: stream.description, content: { ...json, [stream.type]: media } },
  };
}

/** Per route, before the document is assembled: zod to JSON schema, then what the route schema cannot say. */
export const transform: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  const consumes = (schema as { consumes?: string[] } | undefined)?.consumes;
  const multipart = consumes?.includes('multipart/form-data') && !schema?.body;
  return {
    schema: multipart ? { ...schema, body: FILE_UPLOAD } : schema,
    // A route declared as `/` under a prefix: the same route answers without the slash.
    url: url.length > 1 ? url.replace(/\/$/, '') : url,
  };
};

/** Once the whole document is assembled: names, summaries, security and streams of every operation. */
export const transformObject: SwaggerTransformObject = (documentObject) => {
  if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
  const { openapiObject } = documentObject;
  const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      operation.operationId ??= operationIdOf(method, path);
      operation.summary ??= summaryOf(operation, method, path);
      const security = securityOf(operation, path);
      if (security) operation.security = security;
      else delete operation.security;
      if (security?.length !== 0) {
        operation.responses = { ...operation.responses, 401: operation.responses?.['401'] ?? UNAUTHENTICATED };
      }
      const stream = STREAMS[`${method.toUpperCase()} ${path}`];
      if (stream) documentStream(operation, stream);
    }
  }
  return openapiObject;
};
