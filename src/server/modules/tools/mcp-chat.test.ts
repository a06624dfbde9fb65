import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotTool } from '@shared/bots/bot-settings';
import { CHAT_MESSAGES, type ChatStreamEvent, type Message } from '@shared/contracts/chat';
import { startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, deltasOf, openChatStream, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startFakeLlm,
  systemPromptOf,
  toolResultsOf,
  toolsOffered,
  type FakeLlm,
} from '../../../../tests/support/fake-llm';
import { FACT_URL, startFakeMcpServer, type FakeMcpServer } from '../../../../tests/support/fake-mcp-server';
import { signUp, type TestApp } from '../../../../tests/support/test-app';

const LOOKUP = 'mcp_facts_lookup_fact';
const DELETE = 'mcp_facts_delete_record';

const stepsOf = (events: ChatStreamEvent[]) => events.flatMap((e) => (e.event === 'step' ? [e.data] : []));
const savedReply = (events: ChatStreamEvent[]): Message => {
  const done = events.find((e) => e.event === 'done');
  if (done?.event !== 'done' || !done.data) throw new Error(`no saved reply in ${JSON.stringify(events)}`);
  return done.data;
};
const lastToolResult = (fake: FakeLlm) => JSON.parse(toolResultsOf(fake.lastRequest()).at(-1)!.content) as unknown;

/** A bot with the Tools capability calling the tools of a real MCP server, in the chat and on /v1. */
describe.each(databaseKinds)('bots calling MCP tools on %s', (kind) => {
  let fake: FakeLlm;
  let mcp: FakeMcpServer;
  let t: TestApp;
  let token: string;
  let serverId: number;

  beforeAll(async () => {
    fake = await startFakeLlm();
    mcp = await startFakeMcpServer();
    t = await startCheckedApp({
      kind,
      env: {
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: 'fake-model',
        // UNSAFE anywhere but tests: lets the fake MCP server on loopback through, as web research tests do.
        WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
        MCP_TOOL_TIMEOUT_MS: '500',
      },
    });
    token = (await signUp(t)).token;
    const added = await t.request('POST', '/api/mcp-servers', {
      token,
      body: { name: 'Facts', url: mcp.streamableUrl },
    });
    expect(added.body).toMatchObject({ status: 'ok' });
    serverId = added.body.id as number;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await mcp.close();
  });
  beforeEach(() => {
    fake.setReply('Hello from the fake model.');
    fake.requests.length = 0;
  });

  const toolBot = (tools: Omit<BotTool, 'serverId'>[], server = serverId) =>
    createBot(t, token, { capabilities: ['tools'], config: { tools: tools.map((x) => ({ serverId: server, ...x })) } });

  async function chat(botId: number, content: string) {
    const conversation = await createConversation(t, token, botId);
    return streamChat(t, `/api/conversations/${conversation.id}/stream`, { token, body: { content } });
  }

  it('calls a read-only tool, shows the call as a step and cites its resource as a tool source', async () => {
    const bot = await toolBot([{ name: 'lookup_fact' }]);
    fake.enqueue({ toolCalls: [{ name: LOOKUP, arguments: { topic: 'owls' } }] }, 'Owls are well documented [1].');
    const events = await chat(bot.id, 'Tell me about owls');

    expect(deltasOf(events).join('')).toBe('Owls are well documented [1].');
    expect(toolsOffered(fake.requests[0]!)).toEqual([LOOKUP]);
    expect(systemPromptOf(fake.requests[0]!)).toContain('cite it with [n]');
    const source = {
      n: 1,
      kind: 'tool',
      title: 'Fact sheet: owls',
      url: FACT_URL('owls'),
      snippet: 'Everything known about owls.',
    };
    expect(lastToolResult(fake)).toEqual({
      result: expect.stringContaining(`[1] Fact sheet: owls (${FACT_URL('owls')})`),
      sources: [{ n: 1, title: 'Fact sheet: owls', url: FACT_URL('owls') }],
    });
    const steps = stepsOf(events);
    expect(steps[0]).toMatchObject({ kind: 'tool', server: 'Facts', tool: 'lookup_fact', status: 'running' });
    const saved = savedReply(events);
    expect(saved.status).toBe('complete');
    expect(saved.sources).toEqual([source]);
    expect(saved.steps).toEqual([
      {
        kind: 'tool',
        callId: expect.any(String),
        server: 'Facts',
        tool: 'lookup_fact',
        input: '{"topic":"owls"}',
        result: expect.stringContaining('The fact about owls'),
        durationMs: expect.any(Number),
        status: 'done',
      },
    ]);
    expect(mcp.calls.at(-1)).toEqual({ tool: 'lookup_fact', args: { topic: 'owls' } });
  });

  it('offers a tool that changes things on /v1 only when its owner auto-approved it', async () => {
    const key = async () => (await t.request('POST', '/api/keys', { token, body: { name: 'k', botId: null } })).body;
    const { key: apiKey } = (await key()) as { key: string };
    const ask = (botId: number) =>
      fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `bot-${botId}`, messages: [{ role: 'user', content: 'Delete record 7' }] }),
      });

    const asking = await toolBot([{ name: 'lookup_fact' }, { name: 'delete_record' }]);
    expect((await ask(asking.id)).status).toBe(200);
    expect(toolsOffered(fake.lastRequest())).toEqual([LOOKUP]);

    const trusted = await toolBot([{ name: 'delete_record', autoApprove: true }]);
    const before = mcp.deleteCalls;
    fake.enqueue({ toolCalls: [{ name: DELETE, arguments: { id: '7' } }] }, 'Record 7 is deleted.');
    const answered = await ask(trusted.id);
    expect(answered.status).toBe(200);
    expect(toolsOffered(fake.requests.at(-2)!)).toEqual([DELETE]);
    expect(lastToolResult(fake)).toEqual({ result: 'Deleted record 7.' });
    expect(mcp.deleteCalls).toBe(before + 1);
  });

  it('asks before a tool that changes things runs in the chat, and never runs it after Deny', async () => {
    const bot = await toolBot([{ name: 'delete_record' }]);
    const conversation = await createConversation(t, token, bot.id);
    const before = mcp.deleteCalls;
    fake.enqueue({ toolCalls: [{ name: DELETE, arguments: { id: '9' } }] }, 'I left record 9 alone.');
    const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'Delete record 9' },
    });
    const waiting = await stream.waitFor((e) => e.event === 'step' && e.data.status === 'awaiting_approval');
    const callId = waiting.event === 'step' ? waiting.data.callId : undefined;
    const denied = await t.request('POST', `/api/conversations/${conversation.id}/tool-approvals`, {
      token,
      body: { callId, decision: 'deny' },
    });
    expect(denied.status).toBe(200);
    const reply = savedReply(await stream.finished);
    expect(reply.steps).toEqual([
      expect.objectContaining({ tool: 'delete_record', status: 'denied', error: CHAT_MESSAGES.toolDenied }),
    ]);
    expect(lastToolResult(fake)).toEqual({ error: expect.stringContaining('declined') });
    expect(mcp.deleteCalls).toBe(before);
  });

  it('turns a timeout, an error result and a dead server into tool results the model reads; the reply completes', async () => {
    const bot = await toolBot([{ name: 'wait' }, { name: 'lookup_fact' }]);
    fake.enqueue(
      { toolCalls: [{ name: 'mcp_facts_wait', arguments: { ms: 3_000 } }] },
      { toolCalls: [{ name: LOOKUP, arguments: { topic: 'unknown' } }] },
      'Neither worked.',
    );
    const events = await chat(bot.id, 'Try both');
    const saved = savedReply(events);
    expect(saved).toMatchObject({ status: 'complete', content: 'Neither worked.' });
    const results = toolResultsOf(fake.lastRequest()).map((r) => JSON.parse(r.content) as unknown);
    expect(results).toEqual([
      { error: 'The MCP server gave no answer within 0.5 seconds' },
      { error: 'No fact is known about this topic.' },
    ]);
    expect(saved.steps.map((s) => [s.tool, s.status, s.error])).toEqual([
      ['wait', 'failed', 'The MCP server gave no answer within 0.5 seconds'],
      ['lookup_fact', 'failed', 'No fact is known about this topic.'],
    ]);

    const gone = await startFakeMcpServer();
    const added = await t.request('POST', '/api/mcp-servers', {
      token,
      body: { name: 'Gone', url: gone.streamableUrl },
    });
    const orphan = await toolBot([{ name: 'lookup_fact' }], added.body.id as number);
    await gone.close();
    fake.enqueue({ toolCalls: [{ name: 'mcp_gone_lookup_fact', arguments: { topic: 'owls' } }] }, 'It is down.');
    const down = savedReply(await chat(orphan.id, 'Owls?'));
    expect(down).toMatchObject({ status: 'complete', content: 'It is down.' });
    expect(lastToolResult(fake)).toEqual({ error: expect.stringMatching(/refused the connection/) });
  });
});
