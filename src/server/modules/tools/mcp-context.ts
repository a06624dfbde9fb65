import { jsonSchema, tool, type JSONSchema7 } from 'ai';
import { capabilityEnables } from '@shared/bots/capabilities';
import type { BotTool } from '@shared/bots/bot-settings';
import { CHAT_MESSAGES } from '@shared/contracts/chat';
import {
  addSource,
  startStep,
  type ReplyContext,
  type ReplyContextInput,
  type ReplyContextProvider,
} from '../replies/reply-context';
import { McpCallError, type ListedTool } from './mcp-client';
import { cutLine, readToolResult, type ToolOutput } from './mcp-results';
import type { McpServerRow } from './mcp-servers.repository';
import { endpointOf, isStale, refreshInBackground, usableServers, type McpServers } from './mcp-servers.service';

/** What the model is told once, whatever tools it was given. */
const INSTRUCTION =
  'You can call tools of the MCP servers connected to you (their names start with mcp_). Use one when the question needs what it does, and say what you did rather than guessing. When a tool result numbers a source [n], cite it with [n] right after the facts it supports; never invent a number. If a call was declined or failed, say so plainly and do not try it again in this reply.';

const DECLINED = 'The person declined this tool call, so it did not run. Tell them and do not try it again.';
const NO_ANSWER = 'Nobody approved this tool call in time, so it did not run. Tell the person they can ask again.';

/** Providers accept tool names of at most 64 characters from [a-zA-Z0-9_-]. */
const MAX_TOOL_NAME = 64;
const slug = (text: string, max: number) =>
  text
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max) || 'x';

/** `mcp_<server>_<tool>`, within the providers' limits and different from every name already taken. */
function toolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const base = `mcp_${slug(server, 20).toLowerCase()}_${slug(tool, MAX_TOOL_NAME)}`.slice(0, MAX_TOOL_NAME);
  let name = base;
  for (let k = 2; taken.has(name); k += 1) name = `${base.slice(0, MAX_TOOL_NAME - String(k).length - 1)}_${k}`;
  return name;
}

interface Call {
  server: McpServerRow;
  listed: ListedTool;
  /** The person chatting is asked before it runs. */
  asks: boolean;
}

/** One call of an MCP tool: a step the chat shows (awaiting approval, running, done…), and a result the model reads. */
async function runCall(
  deps: McpServers,
  input: ReplyContextInput,
  context: ReplyContext,
  { server, listed, asks }: Call,
  args: unknown,
  callId: string,
  signal: AbortSignal | undefined,
): Promise<ToolOutput> {
  const step = startStep(
    input,
    context,
    { kind: 'tool', callId, server: server.name, tool: listed.name, input: cutLine(JSON.stringify(args ?? {})) },
    // The approver reads the step as it waits: it is emitted before the person is asked.
    asks ? 'awaiting_approval' : 'running',
  );
  if (asks) {
    const call = { callId, server: server.name, tool: listed.name, input: args };
    const decision = await input.approve!(call, signal ?? input.signal);
    if (decision !== 'approved') {
      // The person reads their own words in the step; the model reads what to tell them.
      if (decision === 'denied') step('denied', CHAT_MESSAGES.toolDenied);
      else step('skipped', CHAT_MESSAGES.toolNoAnswer);
      return { error: decision === 'denied' ? DECLINED : NO_ANSWER };
    }
    step('running');
  }
  const started = Date.now();
  const sourcesBefore = context.sources.length;
  try {
    const result = await deps.clients.callTool(endpointOf(deps, server), listed.name, args, signal);
    const read = readToolResult(result, (source) => addSource(context, source));
    const done = { result: cutLine(read.text), durationMs: Date.now() - started };
    if (result.isError) {
      step('failed', cutLine(read.text), done);
      return { error: read.text || 'The tool reported an error' };
    }
    step('done', undefined, done);
    return read.sources.length ? { result: read.text, sources: read.sources } : { result: read.text };
  } catch (err) {
    // Whatever went wrong is the model's to explain: a tool never fails the reply.
    if (!(err instanceof McpCallError)) input.log.error({ err, mcpServerId: server.id }, 'MCP tool call failed');
    const message = err instanceof McpCallError ? err.message : 'The tool call failed';
    step('failed', message, { durationMs: Date.now() - started });
    return { error: message };
  } finally {
    // Sources a call found reach the client as soon as it ends, before the answer that cites them.
    if (context.sources.length > sourcesBefore) input.emit({ event: 'sources', data: { sources: context.sources } });
  }
}

/** The calls a bot's `tools` setting allows in this reply: on servers its owner may use, still listed, approvable. */
function allowedCalls(servers: McpServerRow[], chosen: readonly BotTool[], canApprove: boolean): Call[] {
  return chosen.flatMap((choice) => {
    const server = servers.find((s) => s.id === choice.serverId);
    const listed = server?.tools.find((t) => t.name === choice.name);
    if (!server || !listed) return [];
    const asks = !listed.readOnly && !choice.autoApprove;
    // Where nobody can answer (widget, /v1, shared links, evaluations), a tool that would ask is not offered.
    return asks && !canApprove ? [] : [{ server, listed, asks }];
  });
}

/**
 * The tools of MCP servers a bot with the Tools capability may call (its `tools` setting), as AI SDK tools in the
 * reply's tool loop: each call is a step, what it returns from a titled resource a source to cite, and a tool its
 * server does not mark read-only asks the person chatting first unless its owner auto-approved it.
 */
export function mcpReplyContext(deps: McpServers): ReplyContextProvider {
  return async (input, context) => {
    const { bot } = input;
    const chosen = bot.config.tools ?? [];
    if (!capabilityEnables(bot, 'tools') || chosen.length === 0) return;
    const servers = await usableServers(deps, bot.userId, [...new Set(chosen.map((t) => t.serverId))]);
    // This reply uses the tools listed last; a listing grown old is renewed for the next one.
    for (const server of servers) if (isStale(deps, server)) refreshInBackground(deps, server);
    const calls = allowedCalls(servers, chosen, input.approve !== undefined);
    if (calls.length === 0) return;
    const taken = new Set(Object.keys(context.tools));
    for (const call of calls) {
      const name = toolName(call.server.name, call.listed.name, taken);
      taken.add(name);
      context.tools[name] = tool({
        description: [call.listed.title, call.listed.description].filter(Boolean).join(': ').slice(0, 1_000),
        // Providers want an object schema with properties, which the MCP spec does not insist on.
        inputSchema: jsonSchema({ type: 'object', properties: {}, ...call.listed.inputSchema } as JSONSchema7),
        execute: (args, { toolCallId, abortSignal }) =>
          runCall(deps, input, context, call, args, toolCallId, abortSignal),
      });
    }
    context.instructions.push(INSTRUCTION);
  };
}
