import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool, McpTransport } from '@shared/contracts/mcp-servers';
import { AddressRefusedError, createMcpFetches, type AddressRules } from './mcp-fetch';
import { isMcpError, isMcpTimeout, loadClientSdk } from './mcp-sdk';

/** What a connection to one server needs; `version` changes whenever its address or credentials do. */
export interface McpEndpoint {
  id: number;
  url: string;
  transport: McpTransport;
  /** Sent with every request: the extra headers and `Authorization: Bearer …` when a token is set. */
  headers: Record<string, string>;
  allowPrivateAddress: boolean;
  version: string;
}

/** A listed tool with the JSON Schema of its arguments, as stored and offered to the model. */
export type ListedTool = McpTool & { inputSchema: Record<string, unknown> };

/** A connection or call that failed, with a message the model and the person can read (never a secret). */
export class McpCallError extends Error {}

export interface McpClientOptions extends AddressRules {
  /** Per tool call (MCP_TOOL_TIMEOUT_MS). */
  toolTimeoutMs: number;
  /** Connecting and listing tools. */
  connectTimeoutMs?: number;
  /** A pooled connection unused this long is closed. */
  idleMs?: number;
  /** The server said its tools changed (tools/list_changed). */
  onToolsChanged?(serverId: number): void;
}

export interface McpClients {
  /** Why the address rules refuse this URL, or null (see McpFetches.refusal). */
  addressRefusal(url: string): Promise<string | null>;
  listTools(endpoint: McpEndpoint): Promise<ListedTool[]>;
  callTool(endpoint: McpEndpoint, name: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

interface Pooled {
  version: string;
  client: Promise<Client>;
  idle?: NodeJS.Timeout;
}

/** At most this many pages of tools/list are read: a server that pages forever is not followed forever. */
const MAX_TOOL_PAGES = 20;
const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} seconds`;

const ADDRESS_REFUSED = /This address is not allowed \([^)]*\)/;
const NETWORK_CODE = /\b(ECONNREFUSED|ENOTFOUND|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/;

/** The first error in a chain of causes that satisfies `test`. */
function findCause(
  err: unknown,
  test: (e: Error & { code?: unknown }) => boolean,
): (Error & { code?: unknown }) | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (test(e as Error & { code?: unknown })) return e as Error & { code?: unknown };
  }
  return null;
}

/** Whatever went wrong, as one line a person or the model can act on. */
export function describeMcpError(err: unknown, url: string, timeoutMs: number): string {
  if (err instanceof McpCallError) return err.message;
  // The SSE transport's EventSource keeps only the message of what its fetch threw.
  const message = err instanceof Error ? err.message : String(err);
  const refused =
    findCause(err, (e) => e instanceof AddressRefusedError)?.message ?? ADDRESS_REFUSED.exec(message)?.[0];
  if (refused) return refused;
  if (isMcpTimeout(err)) {
    return `The MCP server gave no answer within ${seconds(timeoutMs)}`;
  }
  const origin = URL.canParse(url) ? new URL(url).origin : url;
  const network = findCause(err, (e) => typeof e.code === 'string') ?? { code: NETWORK_CODE.exec(message)?.[1] };
  if (network.code === 'ECONNREFUSED') return `${origin} refused the connection: is the MCP server running?`;
  if (network.code === 'ENOTFOUND') return `${new URL(url).hostname} could not be found`;
  if (['ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(String(network.code))) {
    return `${origin} could not be reached (${String(network.code)})`;
  }
  // The SDK's HTTP errors (StreamableHTTPError, SseError) carry the status as their code.
  const status = Number(findCause(err, (e) => typeof e.code === 'number' && e.code >= 400 && e.code < 600)?.code);
  if (status === 401 || status === 403) return `The MCP server answered ${status}: check the bearer token or headers`;
  if (status === 404 || status === 405) {
    return `The MCP server answered ${status}: check the URL and the transport (Streamable HTTP or SSE)`;
  }
  if (status) return `The MCP server answered ${status}`;
  if (isMcpError(err)) return `The MCP server answered with an error: ${err.message}`.slice(0, 300);
  return `The MCP server could not be used: ${message}`.slice(0, 300);
}

const toListedTool = (tool: Tool): ListedTool => ({
  name: tool.name,
  title: tool.title ?? tool.annotations?.title ?? null,
  description: tool.description ?? '',
  readOnly: tool.annotations?.readOnlyHint === true,
  // The spec's default: a tool that is not read-only may destroy unless its server says otherwise.
  destructive: tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false,
  inputSchema: tool.inputSchema as Record<string, unknown>,
});

/**
 * MCP connections with the official SDK, pooled per server: a connected client is reused while its server's
 * address and credentials stay the same, closed after `idleMs` unused or when its transport fails (the next use
 * reconnects), and every client is closed with `close()`. Each request goes through the address-checked fetch
 * unless the server's admin allowed a private address.
 */
export function createMcpClients(options: McpClientOptions): McpClients {
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  const idleMs = options.idleMs ?? 5 * 60_000;
  const fetches = createMcpFetches(options);
  const pool = new Map<number, Pooled>();

  function transportFor(
    { SSEClientTransport, StreamableHTTPClientTransport }: Awaited<ReturnType<typeof loadClientSdk>>,
    endpoint: McpEndpoint,
  ): Transport {
    const url = new URL(endpoint.url);
    const fetch = endpoint.allowPrivateAddress ? fetches.unchecked : fetches.checked;
    const requestInit = { headers: endpoint.headers };
    return endpoint.transport === 'sse'
      ? new SSEClientTransport(url, { fetch, requestInit })
      : new StreamableHTTPClientTransport(url, { fetch, requestInit });
  }

  /** Takes the client out of the pool and closes it once calls still running on it have had their time. */
  function retire(id: number, pooled: Pooled, graceMs = 0) {
    if (pool.get(id) === pooled) pool.delete(id);
    clearTimeout(pooled.idle);
    const close = () => void pooled.client.then((c) => c.close()).catch(() => {});
    if (graceMs) setTimeout(close, graceMs).unref();
    else close();
  }

  async function connect(endpoint: McpEndpoint): Promise<Client> {
    const sdk = await loadClientSdk();
    const client = new sdk.Client({ name: 'botty', version: '1.0.0' });
    const transport = transportFor(sdk, endpoint);
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
    if (client.getServerCapabilities()?.tools?.listChanged && options.onToolsChanged) {
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => options.onToolsChanged?.(endpoint.id));
    }
    return client;
  }

  /** The pooled client of this server (a new one when its settings changed), and whether it was already open. */
  function take(endpoint: McpEndpoint): { pooled: Pooled; reused: boolean } {
    const current = pool.get(endpoint.id);
    if (current && current.version === endpoint.version) {
      clearTimeout(current.idle);
      return { pooled: current, reused: true };
    }
    if (current) retire(endpoint.id, current, options.toolTimeoutMs);
    const pooled: Pooled = { version: endpoint.version, client: connect(endpoint) };
    pool.set(endpoint.id, pooled);
    pooled.client.then(
      (client) => {
        // A transport that fails or closes (the server restarted, an SSE stream ended) is not reused.
        client.onerror = () => retire(endpoint.id, pooled, options.toolTimeoutMs);
        client.onclose = () => {
          if (pool.get(endpoint.id) === pooled) pool.delete(endpoint.id);
        };
      },
      () => {
        if (pool.get(endpoint.id) === pooled) pool.delete(endpoint.id);
      },
    );
    return { pooled, reused: false };
  }

  function release(endpoint: McpEndpoint, pooled: Pooled) {
    if (pool.get(endpoint.id) !== pooled) return;
    clearTimeout(pooled.idle);
    pooled.idle = setTimeout(() => retire(endpoint.id, pooled), idleMs);
    pooled.idle.unref();
  }

  /**
   * Runs `work` on the server's client. A reused client whose request fails before it could have run (its
   * session is gone, the connection was refused), or any failed listing, is replaced and tried once more.
   */
  async function withClient<T>(
    endpoint: McpEndpoint,
    timeoutMs: number,
    work: (client: Client) => Promise<T>,
    retryAny: boolean,
  ): Promise<T> {
    const { pooled, reused } = take(endpoint);
    let client: Client;
    try {
      client = await pooled.client;
    } catch (err) {
      throw new McpCallError(describeMcpError(err, endpoint.url, connectTimeoutMs));
    }
    try {
      const result = await work(client);
      release(endpoint, pooled);
      return result;
    } catch (err) {
      const timedOut = isMcpTimeout(err);
      // An answer with a JSON-RPC error, or none in time, leaves the connection as good as it was.
      if (isMcpError(err)) release(endpoint, pooled);
      else retire(endpoint.id, pooled, options.toolTimeoutMs);
      const stale = findCause(err, (e) => e.code === 404 || e.code === 'ECONNREFUSED');
      if (reused && !timedOut && (retryAny || stale)) return withClient(endpoint, timeoutMs, work, false);
      throw new McpCallError(describeMcpError(err, endpoint.url, timeoutMs));
    }
  }

  return {
    addressRefusal: (url) => fetches.refusal(url),
    listTools: (endpoint) =>
      withClient(
        endpoint,
        connectTimeoutMs,
        async (client) => {
          const tools: ListedTool[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
            const listed = await client.listTools(cursor ? { cursor } : undefined, { timeout: connectTimeoutMs });
            tools.push(...listed.tools.map(toListedTool));
            cursor = listed.nextCursor;
            if (!cursor) break;
          }
          return tools;
        },
        true,
      ),
    callTool: (endpoint, name, args, signal) =>
      withClient(
        endpoint,
        options.toolTimeoutMs,
        async (client) =>
          (await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }, undefined, {
            timeout: options.toolTimeoutMs,
            ...(signal ? { signal } : {}),
          })) as CallToolResult,
        false,
      ),
    async close() {
      const all = [...pool.entries()];
      pool.clear();
      for (const [, pooled] of all) clearTimeout(pooled.idle);
      await Promise.allSettled(all.map(([, pooled]) => pooled.client.then((c) => c.close())));
      fetches.close();
    },
  };
}
