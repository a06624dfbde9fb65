import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { STREAMS } from './openapi-document';

type Operation = {
  operationId: string;
  summary: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { format?: string }> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { security: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };

/** A client of the API written against the types generated from its document; `wrongCalls` must not compile. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function signUpAndListBots(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  const account = { username: 'typed_client', password: 'correct-horse-battery' };
  await api.POST('/api/auth/register', { body: { ...account, email: 'typed_client@example.com' } });
  const { data: session } = await api.POST('/api/auth/login', { body: account });
  if (!session) throw new Error('login failed');
  const headers = { authorization: \`Bearer \${session.token}\` };
  const { data: bots } = await api.GET('/api/bots', { headers });
  const { error } = await api.GET('/api/bots/{id}', { params: { path: { id: '999' } }, headers });
  const name: string = session.user.username;
  return { name, bots: bots?.length, notFound: error?.message };
}

export function wrongCalls(api: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error: no such path
  void api.GET('/api/nowhere');
  // @ts-expect-error: logging in takes a username, not a user
  void api.POST('/api/auth/login', { body: { user: 'x', password: 'y' } });
  // @ts-expect-error: a bot's id is a path parameter
  void api.GET('/api/bots/{id}', {});
}
`;

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.request('GET', '/api/openapi.json')).body as Document;
  });
  afterAll(() => t.close());

  it('names and summarises every operation once, and says which need no credentials', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['getBotsById', 'postAuthLogin', 'postV1ChatCompletions']));
    expect(operations().filter(({ operation }) => !operation.summary)).toEqual([]);
    const securityOf = (route: string) => operations().find((o) => o.route === route)?.operation.security;
    expect(securityOf('POST /api/auth/login')).toEqual([]);
    expect(securityOf('GET /api/bots')).toBeUndefined();
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(securityOf('POST /v1/chat/completions')).toEqual([{ apiKey: [] }]);
  });

  it('documents uploads as multipart forms and streamed answers by their media types', () => {
    const upload = doc.paths['/api/bots/{id}/files']!.post!.requestBody!.content['multipart/form-data'];
    expect(upload!.schema.properties!.file!.format).toBe('binary');
    for (const [route, stream] of Object.entries(STREAMS)) {
      const [method, path] = route.split(' ') as [string, string];
      const content = doc.paths[path]?.[method.toLowerCase()]?.responses['200']?.content;
      expect({ route, types: Object.keys(content ?? {}) }).toEqual({
        route,
        types: stream.alongside ? ['application/json', stream.type] : [stream.type],
      });
    }
  });

  it('types a client that compiles and talks to the server', async () => {
    // Under node_modules, so the client resolves openapi-fetch as any module of the project does.
    const cache = join(fileURLToPath(new URL('../../../node_modules/.cache', import.meta.url)));
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'openapi-client-'));
    try {
      writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(JSON.stringify(doc))));
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      const options: ts.CompilerOptions = {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2023,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
      };
      const program = ts.createProgram([join(dir, 'client.ts')], options);
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);

      const js = ts.transpileModule(CLIENT, { compilerOptions: { module: ts.ModuleKind.ESNext } }).outputText;
      writeFileSync(join(dir, 'client.mjs'), js);
      const client = (await import(pathToFileURL(join(dir, 'client.mjs')).href)) as {
        signUpAndListBots(baseUrl: string): Promise<unknown>;
      };
      expect(await client.signUpAndListBots(t.url)).toEqual({
        name: 'typed_client',
        bots: 0,
        notFound: 'Bot not found',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
