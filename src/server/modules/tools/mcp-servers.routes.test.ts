import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MESSAGES, type McpServer } from '@shared/contracts/mcp-servers';
import { makeAdmin, person, type Person } from '../../../../tests/support/admin-api';
import { expectError, startCheckedApp } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { unreachableUrl } from '../../../../tests/support/fake-llm';
import { startFakeMcpServer, type FakeMcpServer } from '../../../../tests/support/fake-mcp-server';
import { logSink } from '../../../../tests/support/log-sink';
import { secretWatch } from '../../../../tests/support/secret-watch';
import type { TestApp } from '../../../../tests/support/test-app';

const TOKEN = 'mcp-secret-DO-NOT-LEAK-8c2f41d9';
const HEADER_VALUE = 'team-secret-DO-NOT-LEAK-77ab';

describe.each(databaseKinds)('MCP servers on %s', (kind) => {
  let mcp: FakeMcpServer;
  let t: TestApp;
  let admin: Person;
  let alice: Person;
  let bob: Person;
  const sink = logSink();
  /** Every answer the tests read, the log and the database file, to look for the secrets in all at the end. */
  const watch = secretWatch(() => t, sink);
  const { call } = watch;
  const add = (who: Person, body: Record<string, unknown> = {}) =>
    call('POST', '/api/mcp-servers', {
      token: who.token,
      body: { name: 'Facts', url: mcp.streamableUrl, bearerToken: TOKEN, headers: { 'X-Team': HEADER_VALUE }, ...body },
    });
  const botWith = (who: Person, serverId: number, name = 'lookup_fact') =>
    call('POST', '/api/bots', {
      token: who.token,
      body: {
        name: 'Tool user',
        description: 'Looks things up',
        purpose: 'answering',
        capabilities: ['tools'],
        config: { tools: [{ serverId, name }] },
      },
    });

  beforeAll(async () => {
    mcp = await startFakeMcpServer({ bearerToken: TOKEN });
    t = await startCheckedApp({
      kind,
      // UNSAFE anywhere but tests: lets users' servers be the fake one on loopback, as web research tests do.
      env: { WEB_FETCH_ALLOW_HOSTS: '127.0.0.1', LOG_LEVEL: 'debug' },
      logStream: sink.stream,
    });
    const superadmin = await person(t);
    admin = await person(t);
    await makeAdmin(t, superadmin, admin);
    alice = await person(t);
    bob = await person(t);
  });
  afterAll(async () => {
    await t?.close();
    await mcp?.close();
  });

  it('adds a server, lists its tools with their hints, and keeps it from everyone else (404, and not in a bot)', async () => {
    const created = await add(alice);
    expect(created.status).toBe(201);
    const server = created.body as McpServer;
    expect(server).toMatchObject({
      name: 'Facts',
      transport: 'streamable-http',
      scope: 'personal',
      editable: true,
      hasBearerToken: true,
      bearerTokenLast4: TOKEN.slice(-4),
      headerNames: ['X-Team'],
      allowPrivateAddress: false,
      status: 'ok',
      error: null,
    });
    expect(server.tools.map((tool) => [tool.name, tool.readOnly, tool.destructive])).toEqual([
      ['lookup_fact', true, false],
      ['delete_record', false, true],
      ['wait', true, false],
    ]);
    expect(server.tools[0]).toMatchObject({ title: 'Look up a fact', description: expect.stringContaining('fact') });
    expect(mcp.requests.at(-1)!.headers['x-team']).toBe(HEADER_VALUE);

    const mine = await call('GET', '/api/mcp-servers', { token: alice.token });
    expect(mine.body.servers.map((s: McpServer) => s.id)).toContain(server.id);
    const theirs = await call('GET', '/api/mcp-servers', { token: bob.token });
    expect(theirs.body.servers.map((s: McpServer) => s.id)).not.toContain(server.id);
    for (const [method, path, body] of [
      ['PATCH', `/api/mcp-servers/${server.id}`, { name: 'Mine now' }],
      ['POST', `/api/mcp-servers/${server.id}/refresh`, undefined],
      ['DELETE', `/api/mcp-servers/${server.id}`, undefined],
    ] as const) {
      expectError(await call(method, path, { token: bob.token, body }), 404, MCP_MESSAGES.notFound);
    }
    expectError(await botWith(bob, server.id), 400, MCP_MESSAGES.toolNotFound('lookup_fact'));
    const bot = await botWith(alice, server.id);
    expect(bot.status).toBe(201);
    // A bot file names its instance's server ids: imported, the tools on servers the importer cannot use are left out.
    const file = await fetch(`${t.url}/api/bots/${bot.body.id}/export`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const importAs = async (who: Person) => {
      const form = new FormData();
      form.append('file', new Blob([await file.clone().arrayBuffer()]), 'bot.json');
      const res = await fetch(`${t.url}/api/bots/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}` },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { config: { tools?: unknown[] } }).config.tools;
    };
    expect(await importAs(bob)).toEqual([]);
    expect(await importAs(alice)).toEqual([{ serverId: server.id, name: 'lookup_fact' }]);
    // Bob cannot slip Alice's server into one of his bots by editing it either.
    const bobs = await createBot(t, bob.token);
    const patched = await call('PATCH', `/api/bots/${bobs.id}`, {
      token: bob.token,
      body: { config: { tools: [{ serverId: server.id, name: 'delete_record' }] } },
    });
    expectError(patched, 400, MCP_MESSAGES.toolNotFound('delete_record'));

    const renamed = await call('PATCH', `/api/mcp-servers/${server.id}`, {
      token: alice.token,
      body: { name: 'Fact base', headers: null },
    });
    expect(renamed.body).toMatchObject({ name: 'Fact base', headerNames: [], hasBearerToken: true, status: 'ok' });
    expect((await call('DELETE', `/api/mcp-servers/${server.id}`, { token: alice.token })).status).toBe(200);
    // A deleted server blocks nothing: the bot is still edited, and restoring the version that named it drops it.
    const edited = await call('PATCH', `/api/bots/${bot.body.id}`, { token: alice.token, body: { name: 'Renamed' } });
    expect(edited.body.config.tools).toEqual([{ serverId: server.id, name: 'lookup_fact' }]);
    const restored = await call('POST', `/api/bots/${bot.body.id}/versions/1/restore`, { token: alice.token });
    expect(restored.body).toMatchObject({ name: 'Tool user', config: { tools: [] } });
    expectError(
      await call('DELETE', `/api/mcp-servers/${server.id}`, { token: alice.token }),
      404,
      MCP_MESSAGES.notFound,
    );
  });

  it('leaves servers for everyone and private addresses to admins', async () => {
    expectError(await add(alice, { shared: true }), 403, MCP_MESSAGES.adminOnlyShared);
    expectError(await add(alice, { allowPrivateAddress: true }), 403, MCP_MESSAGES.adminOnlyPrivate);
    const shared = await add(admin, { name: 'Company facts', shared: true });
    expect(shared.body).toMatchObject({ scope: 'everyone', editable: true, status: 'ok' });
    const seen = (await call('GET', '/api/mcp-servers', { token: bob.token })).body.servers.find(
      (s: McpServer) => s.id === shared.body.id,
    );
    expect(seen).toMatchObject({ scope: 'everyone', editable: false });
    expectError(
      await call('PATCH', `/api/mcp-servers/${shared.body.id}`, { token: bob.token, body: { name: 'x' } }),
      403,
      MCP_MESSAGES.notYours,
    );
    expect((await botWith(bob, shared.body.id)).status).toBe(201);
    const ownServer = (await add(bob)).body as McpServer;
    expectError(
      await call('PATCH', `/api/mcp-servers/${ownServer.id}`, { token: bob.token, body: { shared: true } }),
      403,
      MCP_MESSAGES.adminOnlyShared,
    );
  });

  it('refuses private and loopback addresses for people, and lets an admin allow one', async () => {
    const port = new URL(mcp.url).port;
    const loopback = `http://localhost:${port}/mcp`;
    for (const [url, reason] of [
      [loopback, 'local network name'],
      ['http://10.1.2.3:8080/mcp', 'private network'],
      ['http://[::1]:8080/mcp', 'loopback'],
      ['http://169.254.169.254/mcp', 'cloud metadata'],
    ]) {
      const refused = await add(alice, { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.message).toContain(`URL: this address is not allowed (${reason})`);
    }
    // Even an admin's server obeys the rules until the admin allows a private address for it.
    expect((await add(admin, { url: loopback })).status).toBe(400);
    const allowed = await add(admin, { url: loopback, allowPrivateAddress: true });
    expect(allowed.body).toMatchObject({ allowPrivateAddress: true, status: 'ok' });
    expect(allowed.body.tools).toHaveLength(3);
    expectError(await add(alice, { url: 'ftp://example.com/mcp' }), 400, MCP_MESSAGES.urlInvalid);
  });

  it('saves a server it cannot reach with the error, refreshes it, and speaks the older SSE transport', async () => {
    const dead = await add(alice, { url: `${await unreachableUrl()}/mcp` });
    expect(dead.status).toBe(201);
    expect(dead.body).toMatchObject({ status: 'error', tools: [] });
    expect(dead.body.error).toMatch(/refused the connection/);
    const again = await call('POST', `/api/mcp-servers/${dead.body.id}/refresh`, { token: alice.token });
    expect(again.body).toMatchObject({ status: 'error', refreshedAt: expect.any(String) });

    const wrongToken = await add(alice, { bearerToken: 'not-the-token' });
    expect(wrongToken.body.error).toBe('The MCP server answered 401: check the bearer token or headers');
    const fixed = await call('PATCH', `/api/mcp-servers/${wrongToken.body.id}`, {
      token: alice.token,
      body: { bearerToken: TOKEN },
    });
    expect(fixed.body).toMatchObject({ status: 'ok', error: null });

    const sse = await add(alice, { url: mcp.sseUrl, transport: 'sse' });
    expect(sse.body).toMatchObject({ transport: 'sse', status: 'ok' });
    expect(sse.body.tools).toHaveLength(3);
  });

  it('keeps the bearer token and header values out of the database file, every answer and the log', async () => {
    const kept = await add(alice, { name: 'Secret keeper' });
    await call('POST', `/api/mcp-servers/${kept.body.id}/refresh`, { token: alice.token });
    const stored = await t.db.kysely
      .selectFrom('mcp_servers')
      .select(['bearer_token_cipher', 'headers_cipher'])
      .execute();
    for (const row of stored) expect(JSON.stringify(row)).not.toContain(TOKEN.slice(0, 12));
    watch.expectNowhere([TOKEN, HEADER_VALUE], 'Secret keeper');
  });
});
