import type { FastifyBaseLogger } from 'fastify';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CHAT_MESSAGE_MAX } from '@shared/constants';
import type { Bot } from '@shared/contracts/bots';
import type { Source } from '@shared/contracts/chat';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { botsOfKey } from '../keys/key-bots';
import type { ApiKeyRow } from '../keys/keys.repository';
import { authenticateKey } from '../keys/keys.service';
import { runReply, type ReplyPipelineDeps, type ReplyResult } from '../replies/reply-pipeline';
import { loadServerSdk } from './server-sdk';

export interface McpDeps extends ReplyPipelineDeps {
  db: Db;
  clock: Clock;
}

/** The caller's API key, or null when it is not one (unknown, revoked, expired). */
export const authenticateMcpKey = (deps: McpDeps, key: string) => authenticateKey(deps, key);

/** What the models behind MCP clients accept as a tool name (Anthropic's and OpenAI's limit); MCP allows 128. */
const TOOL_NAME_MAX = 64;

/** A bot's name as a tool name's tail: lower-case ASCII letters, digits and single underscores. */
const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/**
 * `ask_<bot name>` for each bot, unique within the list. The older bot keeps the plain name and a later one with
 * the same name gets its id appended, so a client's configured tool keeps its name when a namesake is created.
 */
export function toolNames(bots: readonly Pick<Bot, 'id' | 'name'>[]): Map<number, string> {
  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const bot of [...bots].sort((a, b) => a.id - b.id)) {
    const base = `ask_${slugOf(bot.name) || 'bot'}`.slice(0, TOOL_NAME_MAX);
    let name = base;
    for (let clash = 0; taken.has(name); clash++) {
      const suffix = clash ? `_${bot.id}_${clash}` : `_${bot.id}`;
      name = `${base.slice(0, TOOL_NAME_MAX - suffix.length)}${suffix}`;
    }
    taken.add(name);
    names.set(bot.id, name);
  }
  return names;
}

const whereFrom = (source: Source) =>
  source.url ?? [source.section, source.page ? `p. ${source.page}` : null].filter(Boolean).join(', ');

/** The sources as the answer's `[n]` refer to them: "[1] title — url" (a file's section or page instead of a URL). */
export function sourcesText(sources: readonly Source[]): string {
  if (!sources.length) return '';
  const lines = sources.map((source) => {
    const where = whereFrom(source);
    return `[${source.n}] ${source.title}${where ? ` — ${where}` : ''}`;
  });
  return `Sources:\n${lines.join('\n')}`;
}

/**
 * The reply as a tool result: the text with its sources listed after it (so `[n]` can be resolved by any client),
 * and each source with a URL as a `resource_link` too, for clients that show links. A failed reply is an error
 * result with the message the chat would show.
 */
export function toolResultOf(result: Pick<ReplyResult, 'text' | 'error' | 'sources'>): CallToolResult {
  if (result.error) return failed(result.error);
  const text = [result.text, sourcesText(result.sources)].filter(Boolean).join('\n\n');
  return {
    content: [
      { type: 'text', text },
      ...result.sources.flatMap((source) =>
        source.url
          ? [
              {
                type: 'resource_link' as const,
                uri: source.url,
                name: source.title,
                description: `Source [${source.n}]`,
              },
            ]
          : [],
      ),
    ],
  };
}

const SOMETHING_WENT_WRONG = 'Something went wrong on our side. Please try again.';
const failed = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

const QUESTION = z
  .string()
  .trim()
  .min(1)
  .max(CHAT_MESSAGE_MAX)
  .describe('The question or request for the bot, with any context it needs: each call starts a new conversation.');

/**
 * Asks the bot as `/v1` does (the one reply pipeline: its prompt, settings, knowledge and web research), storing
 * nothing of the exchange; usage is counted and the bot's use recorded. Nobody can approve a tool call here, so
 * only read-only and auto-approved tools of the bot's MCP servers run.
 */
async function ask(
  deps: McpDeps,
  key: ApiKeyRow,
  bot: Bot,
  question: string,
  signal: AbortSignal,
  log: FastifyBaseLogger,
): Promise<CallToolResult> {
  try {
    await deps.usage.admit({ ownerId: bot.userId, shared: false });
    const result = await runReply(
      deps,
      {
        userId: key.user_id,
        bot,
        question: { content: question, attachments: [], conversationId: null },
        history: [],
        signal,
        log,
      },
      () => {},
    );
    if (!result.error && !signal.aborted) deps.usage.countUse(bot.id, isoNow(deps.clock), log);
    return toolResultOf(result);
  } catch (err) {
    // A daily limit reached: the client's model reads why and when it resets. Anything else stays in the log.
    if (err instanceof AppError && err.code === 'RATE_LIMITED') return failed(err.message);
    log.error({ err }, 'MCP tool call failed');
    return failed(SOMETHING_WENT_WRONG);
  }
}

/**
 * An MCP server whose tools are the bots the key reaches, one `ask_…` tool each; built per request (stateless),
 * so a bot created, renamed or switched off is seen by the next request.
 */
export async function botsServer(deps: McpDeps, key: ApiKeyRow, log: FastifyBaseLogger): Promise<McpServer> {
  const { McpServer } = await loadServerSdk();
  const server = new McpServer(
    { name: 'botty', title: 'Botty', version: '1.0.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: 'Each tool asks one of your Botty bots.' },
  );
  // As everyone but the owner in the app gets them: their published versions.
  const bots = await Promise.all((await botsOfKey(deps, key)).map((bot) => deps.publishedVersions.of(bot, 'others')));
  const names = toolNames(bots);
  for (const bot of bots) {
    server.registerTool(
      names.get(bot.id)!,
      {
        title: bot.name,
        description: `Ask “${bot.name}”, a Botty bot: ${bot.description}`,
        inputSchema: { question: QUESTION },
        annotations: {
          title: bot.name,
          // Asking changes nothing, unless the bot may call its MCP servers' tools (its owner's auto-approved ones).
          readOnlyHint: !bot.capabilities.includes('tools'),
          openWorldHint: bot.capabilities.includes('web_search') || bot.capabilities.includes('tools'),
        },
      },
      ({ question }, extra) => ask(deps, key, bot, question, extra.signal, log),
    );
  }
  return server;
}
