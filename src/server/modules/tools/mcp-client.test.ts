import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMcpServer, type FakeMcpServer } from '../../../../tests/support/fake-mcp-server';
import { unreachableUrl } from '../../../../tests/support/fake-llm';
import { createMcpClients, type McpClients, type McpEndpoint } from './mcp-client';

/** Botty's MCP client against a real SDK server on loopback, both transports. */
describe('MCP client', () => {
  let server: FakeMcpServer;
  let clients: McpClients;
  let strict: McpClients;
  const TOKEN = 'mcp-token-DO-NOT-LEAK-1234';

  const endpoint = (over: Partial<McpEndpoint> = {}): McpEndpoint => ({
    id: 1,
    url: server.streamableUrl,
    transport: 'streamable-http',
    headers: { authorization: `Bearer ${TOKEN}`, 'x-team': 'blue' },
    allowPrivateAddress: false,
    version: 'v1',
    ...over,
  });

  beforeAll(async () => {
    server = await startFakeMcpServer({ bearerToken: TOKEN });
    // UNSAFE outside tests: the loopback allow-list web research tests use.
    clients = createMcpClients({ allowHosts: ['127.0.0.1'], toolTimeoutMs: 300 });
    strict = createMcpClients({ allowHosts: [], toolTimeoutMs: 300, resolve: async () => ['10.0.0.7'] });
  });
  afterAll(async () => {
    await clients.close();
    await strict.close();
    await server.close();
  });

  it.each(['streamable-http', 'sse'] as const)(
    'lists and calls tools over %s, sending the headers',
    async (transport) => {
      const target = endpoint({
        id: transport === 'sse' ? 2 : 1,
        transport,
        url: transport === 'sse' ? server.sseUrl : server.streamableUrl,
      });
      const tools = await clients.listTools(target);
      expect(tools.map((t) => [t.name, t.readOnly, t.destructive])).toEqual([
        ['lookup_fact', true, false],
        ['delete_record', false, true],
        ['wait', true, false],
      ]);
      expect(tools[0]).toMatchObject({ title: 'Look up a fact', inputSchema: { type: 'object' } });
      const result = await clients.callTool(target, 'lookup_fact', { topic: 'owls' });
      expect(result.content).toContainEqual(
        expect.objectContaining({ type: 'resource_link', title: 'Fact sheet: owls' }),
      );
      expect(server.requests.at(-1)!.headers['x-team']).toBe('blue');
    },
  );

  it('reuses the pooled connection, and reconnects when the settings change', async () => {
    const before = server.requests.filter((r) => r.method === 'POST').length;
    await clients.callTool(endpoint(), 'lookup_fact', { topic: 'a' });
    await clients.callTool(endpoint(), 'lookup_fact', { topic: 'b' });
    // Two calls, no new initialize.
    expect(server.requests.filter((r) => r.method === 'POST').length - before).toBe(2);
    await clients.callTool(endpoint({ version: 'v2' }), 'lookup_fact', { topic: 'c' });
    expect(server.requests.filter((r) => r.method === 'POST').length - before).toBeGreaterThan(3);
  });

  it('turns a timeout, a wrong token and a dead server into readable errors', async () => {
    await expect(clients.callTool(endpoint(), 'wait', { ms: 2_000 })).rejects.toThrow(
      'The MCP server gave no answer within 0.3 seconds',
    );
    await expect(clients.listTools(endpoint({ id: 3, headers: {} }))).rejects.toThrow(
      'The MCP server answered 401: check the bearer token or headers',
    );
    const dead = await unreachableUrl();
    for (const transport of ['streamable-http', 'sse'] as const) {
      await expect(clients.listTools(endpoint({ id: 4, url: `${dead}/mcp`, transport }))).rejects.toThrow(
        `${dead} refused the connection: is the MCP server running?`,
      );
    }
  });

  it('refuses loopback and names that resolve to private addresses, unless a private address is allowed', async () => {
    await expect(strict.listTools(endpoint())).rejects.toThrow('This address is not allowed (loopback)');
    for (const transport of ['streamable-http', 'sse'] as const) {
      await expect(strict.listTools(endpoint({ id: 5, url: 'http://mcp.example.com/mcp', transport }))).rejects.toThrow(
        'This address is not allowed (private network)',
      );
    }
    expect(await strict.listTools(endpoint({ id: 6, allowPrivateAddress: true }))).toHaveLength(3);
  });
});
