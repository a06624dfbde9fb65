import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageReport } from '@shared/contracts/admin';
import type { Bot } from '@shared/contracts/bots';
import { createBot } from '../../../../tests/support/factories';
import { messageText, startFakeLlm, systemPromptOf, type FakeLlm } from '../../../../tests/support/fake-llm';
import { uploadSettled } from '../../../../tests/support/files-api';
import { signUp, startTestApp, type SignedUp, type TestApp } from '../../../../tests/support/test-app';
import { loadConfig } from '../../config';
import { toolNames } from './mcp.service';

const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const ALLOWED_ORIGIN = 'https://app.example.com';

describe('/mcp: every bot an API key reaches is an MCP tool', () => {
  let fake: FakeLlm;
  let t: TestApp;
  let alice: SignedUp;
  let manual: Bot;
  let planner: Bot;
  let bobsBot: Bot;
  let aliceKey: string;
  const dir = mkdtempSync(join(tmpdir(), 'botty-mcp-'));

  const keyFor = async (user: SignedUp, botId: number | null = null) => {
    const res = await t.request('POST', '/api/keys', { token: user.token, body: { name: 'mcp', botId } });
    expect(res.status).toBe(201);
    return res.body as { id: number; key: string };
  };

  /** The official SDK's client, configured as Claude Desktop or Cursor would be: a URL and a bearer header. */
  async function connect(key: string) {
    const client = new Client({ name: 'botty-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    return client;
  }

  async function toolsOf(key: string) {
    const client = await connect(key);
    try {
      return (await client.listTools()).tools;
    } finally {
      await client.close();
    }
  }

  async function ask(key: string, name: string, question: string) {
    const client = await connect(key);
    try {
      return (await client.callTool({ name, arguments: { question } })) as CallToolResult;
    } finally {
      await client.close();
    }
  }

  const textOf = (result: CallToolResult) =>
    result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');

  beforeAll(async () => {
    fake = await startFakeLlm({
      reply: (request) => {
        if (messageText(request.body.messages.at(-1)).includes('please fail')) return { status: 400 };
        // Cites [1] when given numbered sources, as a model told to cite would.
        return systemPromptOf(request).includes('[1]') ? 'Recalibrate every 42 days [1].' : 'Soup on Monday.';
      },
    });
    t = await startTestApp({
      env: {
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: fake.model,
        FILES_DIR: dir,
        API_CORS_ORIGINS: `${ALLOWED_ORIGIN}/, http://localhost:3000`,
      },
      fileJobs: { pollMs: 50 },
    });
    alice = await signUp(t);
    const bob = await signUp(t);
    manual = await createBot(t, alice.token, {
      name: 'Zéphyr Manual!',
      description: 'Answers questions about the Zephyr widget',
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    await uploadSettled(t, alice.token, `/api/bots/${manual.id}/files`, 'manual.txt', new TextEncoder().encode(FACT));
    planner = await createBot(t, alice.token, { name: 'Meal planner' });
    bobsBot = await createBot(t, bob.token, { name: 'Bob secret' });
    aliceKey = (await keyFor(alice)).key;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the key owner’s active bots as ask_ tools taking a question, and nobody else’s', async () => {
    const namesake = await createBot(t, alice.token, { name: 'Meal  Planner' });
    const inactive = await createBot(t, alice.token, { name: 'Retired' });
    expect(
      (await t.request('PATCH', `/api/bots/${inactive.id}`, { token: alice.token, body: { active: false } })).status,
    ).toBe(200);

    const tools = await toolsOf(aliceKey);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['ask_zephyr_manual', 'ask_meal_planner', `ask_meal_planner_${namesake.id}`].sort(),
    );
    const tool = tools.find((x) => x.name === 'ask_zephyr_manual')!;
    expect(tool.title).toBe('Zéphyr Manual!');
    expect(tool.description).toContain('Answers questions about the Zephyr widget');
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['question'] });
    expect(JSON.stringify(tools)).not.toContain(bobsBot.name);
    await t.request('DELETE', `/api/bots/${namesake.id}`, { token: alice.token });
  });

  it('lists only its bot for a key bound to one bot', async () => {
    const { key } = await keyFor(alice, planner.id);
    expect((await toolsOf(key)).map((tool) => tool.name)).toEqual(['ask_meal_planner']);
    // The bot's name is all a call can reach: the key's other bots are not tools of it.
    const result = await ask(key, 'ask_zephyr_manual', 'How often?');
    expect(result.isError).toBe(true);
  });

  it('answers with the bot’s reply and its sources, and counts the usage as /v1 does', async () => {
    const result = await ask(aliceKey, 'ask_zephyr_manual', 'How often must the Zephyr widget be recalibrated?');
    expect(result.isError).toBeFalsy();
    expect(systemPromptOf(fake.lastRequest())).toContain(FACT);
    expect(textOf(result)).toBe('Recalibrate every 42 days [1].\n\nSources:\n[1] manual.txt');

    await t.app.backgroundSettled();
    const usage = (await t.request<UsageReport>('GET', '/api/usage', { token: alice.token })).body;
    expect(usage.totals.find((row) => row.botId === manual.id)).toMatchObject({ replies: 1 });
    const bot = await t.request<Bot>('GET', `/api/bots/${manual.id}`, { token: alice.token });
    expect(bot.body.usageCount).toBe(1);
  });

  it('answers a failed reply, or a daily limit reached, as an error result the client’s model can read', async () => {
    const result = await ask(aliceKey, 'ask_meal_planner', 'please fail');
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toBe('');

    const carol = await signUp(t);
    await createBot(t, carol.token, { name: 'Limited' });
    await t.db.kysely.updateTable('users').set({ daily_reply_limit: 1 }).where('id', '=', carol.user.id).execute();
    const { key } = await keyFor(carol);
    expect((await ask(key, 'ask_limited', 'Hello')).isError).toBeFalsy();
    await t.app.backgroundSettled();
    const limited = await ask(key, 'ask_limited', 'Hello again');
    expect(limited).toMatchObject({ isError: true });
    expect(textOf(limited)).toMatch(/You have used today’s 1 reply\. The limit resets at 00:00 UTC/);
  });

  it('refuses a revoked or unknown key with 401, and answers GET and DELETE with 405', async () => {
    const { id, key } = await keyFor(alice);
    expect((await toolsOf(key)).length).toBeGreaterThan(0);
    expect((await t.request('DELETE', `/api/keys/${id}`, { token: alice.token })).status).toBe(200);
    // The SDK's StreamableHTTPError carries the status as its code.
    await expect(connect(key)).rejects.toMatchObject({ code: 401, message: /revoked/ });
    await expect(connect('botty_unknown')).rejects.toMatchObject({ code: 401 });

    const post = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(post.status).toBe(401);
    expect(post.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const get = await fetch(`${t.url}/mcp`, { headers: { authorization: `Bearer ${aliceKey}` } });
    expect(get.status).toBe(405);
  });

  it('allows the listed browser origins on /v1 and /mcp only (API_CORS_ORIGINS)', async () => {
    const preflight = (path: string, origin: string) =>
      fetch(`${t.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
    for (const path of ['/mcp', '/v1/chat/completions']) {
      const allowed = await preflight(path, ALLOWED_ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/authorization.*mcp-protocol-version/);
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();

      const other = await preflight(path, 'https://evil.example');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-allow-methods')).toBeNull();
    }
    // The app's own API stays same-origin.
    const api = await preflight('/api/bots', ALLOWED_ORIGIN);
    expect(api.headers.get('access-control-allow-origin')).toBeNull();

    // The answer itself carries the header too (the MCP transport writes it after Fastify let go of the response).
    const answer = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        origin: ALLOWED_ORIGIN,
        authorization: `Bearer ${aliceKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/i);
    const models = await fetch(`${t.url}/v1/models`, {
      headers: { origin: ALLOWED_ORIGIN, authorization: 'Bearer botty_revoked' },
    });
    // Even a refusal is readable by the listed origin, so a browser app can show why.
    expect(models.status).toBe(401);
    expect(models.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  });
});

describe('tool names', () => {
  it('are ask_ and the bot’s name in [a-z0-9_], at most 64 characters, unique by the id of the later bot', () => {
    const names = toolNames([
      { id: 9, name: 'Café  Ölçü — FAQ' },
      { id: 3, name: '' + 'Long name '.repeat(10) },
      { id: 4, name: '🙂' },
      { id: 12, name: 'cafe olcu faq' },
      { id: 13, name: 'Long name '.repeat(10) },
    ]);
    expect(names.get(9)).toBe('ask_cafe_olcu_faq');
    expect(names.get(12)).toBe('ask_cafe_olcu_faq_12');
    expect(names.get(4)).toBe('ask_bot');
    expect(names.get(3)).toMatch(/^ask_long_name_long_name/);
    expect(names.get(3)!.length).toBeLessThanOrEqual(64);
    expect(names.get(13)).toMatch(/_13$/);
    expect(names.get(13)!.length).toBe(64);
  });
});

describe('API_CORS_ORIGINS', () => {
  it('takes origins only', () => {
    expect(loadConfig({ API_CORS_ORIGINS: 'https://a.example/, http://localhost:3000' }).apiCorsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(() => loadConfig({ API_CORS_ORIGINS: 'https://a.example/app' })).toThrow(/API_CORS_ORIGINS/);
  });
});
