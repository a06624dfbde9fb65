import type { BotTool } from '@shared/bots/bot-settings';
import type { Role } from '@shared/contracts/auth';
import {
  MCP_MESSAGES,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
} from '@shared/contracts/mcp-servers';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { isAdminRole } from '../../plugins/admin-only';
import { createMcpClients, McpCallError, type McpClients, type McpEndpoint } from './mcp-client';
import type { Resolver } from '../web/safe-fetch';
import {
  deleteServer,
  findServer,
  findUsableServers,
  insertServer,
  saveListing,
  updateServer,
  type McpServerRow,
  type McpServerValues,
} from './mcp-servers.repository';

/** Who asks: their own servers and the ones for everyone are theirs to see; admins change the latter. */
export interface Viewer {
  id: number;
  role: Role;
}

export interface McpServersOptions {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  /** UNSAFE outside tests (WEB_FETCH_ALLOW_HOSTS): hosts let through although loopback or private. */
  allowHosts: readonly string[];
  toolTimeoutMs: number;
  /** Tests answer DNS without leaving the machine. */
  resolve?: Resolver;
}

export interface McpServers extends Omit<McpServersOptions, 'allowHosts' | 'resolve' | 'toolTimeoutMs'> {
  clients: McpClients;
  toolTimeoutMs: number;
  /** Listings under way, one per server, so a busy bot does not list its server's tools once per reply. */
  refreshing: Map<number, Promise<void>>;
  close(): Promise<void>;
}

/** A listing older than this is refreshed, in the background, when a reply uses its server. */
export const STALE_LISTING_MS = 5 * 60_000;

/** The MCP servers' dependencies: the pooled clients, and refreshes on create, change, use and list_changed. */
export function createMcpServers(options: McpServersOptions): McpServers {
  const { allowHosts, resolve, ...rest } = options;
  const servers: McpServers = {
    ...rest,
    refreshing: new Map(),
    clients: createMcpClients({
      allowHosts,
      resolve,
      toolTimeoutMs: options.toolTimeoutMs,
      onToolsChanged: (id) =>
        void findServer(options.db.kysely, id).then((row) => row && refreshInBackground(servers, row)),
    }),
    async close() {
      await Promise.allSettled([...servers.refreshing.values()]);
      await servers.clients.close();
    },
  };
  return servers;
}

const notFound = () => new AppError('NOT_FOUND', MCP_MESSAGES.notFound);
const mayEdit = (row: McpServerRow, viewer: Viewer) =>
  row.shared ? isAdminRole(viewer.role) : row.userId === viewer.id;
const mayUse = (row: McpServerRow, userId: number) => row.shared || row.userId === userId;

export function toMcpServer(row: McpServerRow, viewer: Viewer): McpServer {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    transport: row.transport,
    scope: row.shared ? 'everyone' : 'personal',
    editable: mayEdit(row, viewer),
    hasBearerToken: row.bearerTokenCipher !== null,
    bearerTokenLast4: row.bearerTokenLast4,
    headerNames: row.headerNames,
    allowPrivateAddress: row.allowPrivateAddress,
    status: row.status,
    error: row.error,
    // The input schemas stay on the server: they are the model's business.
    tools: row.tools.map(({ name, title, description, readOnly, destructive }) => ({
      name,
      title,
      description,
      readOnly,
      destructive,
    })),
    refreshedAt: row.refreshedAt,
    createdAt: row.createdAt,
  };
}

/** A secret Botty cannot open (sealed with an earlier SECRET_KEY) is sent as nothing: the server then says 401. */
function open(deps: McpServers, row: McpServerRow, sealed: string | null): string | null {
  if (sealed === null) return null;
  try {
    return deps.secrets.open(sealed);
  } catch {
    deps.log.error(
      { mcpServerId: row.id },
      'an MCP server’s credentials cannot be decrypted with SECRET_KEY; enter them again',
    );
    return null;
  }
}

/** What a connection to the server needs, its credentials opened. */
export function endpointOf(deps: McpServers, row: McpServerRow): McpEndpoint {
  const headers = JSON.parse(open(deps, row, row.headersCipher) ?? '{}') as Record<string, string>;
  const token = open(deps, row, row.bearerTokenCipher);
  return {
    id: row.id,
    url: row.url,
    transport: row.transport,
    // The bearer token wins over an Authorization header of the same server, whatever its spelling.
    headers: token
      ? {
          ...Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization')),
          authorization: `Bearer ${token}`,
        }
      : headers,
    allowPrivateAddress: row.allowPrivateAddress,
    version: `${row.updatedAt}|${row.url}|${row.transport}|${row.bearerTokenCipher}|${row.headersCipher}`,
  };
}

/**
 * Connects and lists the server's tools, and records the outcome. A server that cannot be reached keeps the tools
 * it listed last (a short outage should not take them from its bots), with the error to show.
 */
async function refresh(deps: McpServers, row: McpServerRow): Promise<void> {
  const at = isoNow(deps.clock);
  try {
    const tools = await deps.clients.listTools(endpointOf(deps, row));
    await saveListing(deps.db.kysely, row.id, row.updatedAt, { status: 'ok', error: null, tools, refreshedAt: at });
  } catch (err) {
    if (!(err instanceof McpCallError)) throw err;
    deps.log.info({ mcpServerId: row.id, reason: err.message }, 'MCP server could not be listed');
    await saveListing(deps.db.kysely, row.id, row.updatedAt, {
      status: 'error',
      error: err.message,
      tools: row.tools,
      refreshedAt: at,
    });
  }
}

/** One refresh of a server at a time; whoever asks while one runs waits for that one. */
function refreshOnce(deps: McpServers, row: McpServerRow): Promise<void> {
  const running = deps.refreshing.get(row.id);
  if (running) return running;
  const started = refresh(deps, row).finally(() => deps.refreshing.delete(row.id));
  deps.refreshing.set(row.id, started);
  return started;
}

export function refreshInBackground(deps: McpServers, row: McpServerRow): void {
  refreshOnce(deps, row).catch((err: unknown) => deps.log.error({ err, mcpServerId: row.id }, 'MCP refresh failed'));
}

export const isStale = (deps: McpServers, row: McpServerRow) =>
  !row.refreshedAt || deps.clock.now().getTime() - Date.parse(row.refreshedAt) > STALE_LISTING_MS;

async function requireVisible(deps: McpServers, viewer: Viewer, id: number): Promise<McpServerRow> {
  const row = await findServer(deps.db.kysely, id);
  if (!row || !mayUse(row, viewer.id)) throw notFound();
  return row;
}

async function requireEditable(deps: McpServers, viewer: Viewer, id: number): Promise<McpServerRow> {
  const row = await requireVisible(deps, viewer, id);
  if (!mayEdit(row, viewer)) throw new AppError('FORBIDDEN', MCP_MESSAGES.notYours);
  return row;
}

/** `shared` and `allowPrivateAddress` are the admins' to turn on. */
function requireAdminFlags(viewer: Viewer, body: Pick<McpServerUpdate, 'shared' | 'allowPrivateAddress'>) {
  if (isAdminRole(viewer.role)) return;
  if (body.shared) throw new AppError('FORBIDDEN', MCP_MESSAGES.adminOnlyShared);
  if (body.allowPrivateAddress) throw new AppError('FORBIDDEN', MCP_MESSAGES.adminOnlyPrivate);
}

/** The public-address rules (unless an admin allowed a private address), before anything is saved. */
async function requireAllowedAddress(deps: McpServers, values: Pick<McpServerValues, 'url' | 'allowPrivateAddress'>) {
  if (values.allowPrivateAddress) return;
  const reason = await deps.clients.addressRefusal(values.url);
  if (reason) {
    throw new AppError(
      'VALIDATION',
      `URL: this address is not allowed (${reason}). Only an administrator can add a server on a private or loopback address.`,
    );
  }
}

/** A new secret sealed, null removes it, undefined keeps the stored one. */
function sealed<T>(deps: McpServers, value: T | null | undefined, current: string | null, toText: (v: T) => string) {
  if (value === undefined) return current;
  return value === null ? null : deps.secrets.seal(toText(value));
}

async function reread(deps: McpServers, viewer: Viewer, id: number): Promise<McpServer> {
  return toMcpServer((await findServer(deps.db.kysely, id))!, viewer);
}

export async function listServers(deps: McpServers, viewer: Viewer): Promise<{ servers: McpServer[] }> {
  const rows = await findUsableServers(deps.db.kysely, viewer.id);
  return { servers: rows.map((row) => toMcpServer(row, viewer)) };
}

export async function addServer(deps: McpServers, viewer: Viewer, body: McpServerCreate): Promise<McpServer> {
  requireAdminFlags(viewer, body);
  const headers = body.headers && Object.keys(body.headers).length ? body.headers : null;
  const values: McpServerValues = {
    name: body.name,
    url: body.url,
    transport: body.transport,
    bearerTokenCipher: body.bearerToken ? deps.secrets.seal(body.bearerToken) : null,
    bearerTokenLast4: body.bearerToken ? body.bearerToken.slice(-4) : null,
    headersCipher: headers ? deps.secrets.seal(JSON.stringify(headers)) : null,
    headerNames: Object.keys(headers ?? {}),
    shared: body.shared ?? false,
    allowPrivateAddress: body.allowPrivateAddress ?? false,
  };
  await requireAllowedAddress(deps, values);
  const id = await insertServer(deps.db.kysely, viewer.id, values, isoNow(deps.clock));
  await refreshOnce(deps, (await findServer(deps.db.kysely, id))!);
  return reread(deps, viewer, id);
}

export async function changeServer(
  deps: McpServers,
  viewer: Viewer,
  id: number,
  body: McpServerUpdate,
): Promise<McpServer> {
  const current = await requireEditable(deps, viewer, id);
  requireAdminFlags(viewer, body);
  const headers = body.headers && Object.keys(body.headers).length === 0 ? null : body.headers;
  const values: McpServerValues = {
    name: body.name ?? current.name,
    url: body.url ?? current.url,
    transport: body.transport ?? current.transport,
    bearerTokenCipher: sealed(deps, body.bearerToken, current.bearerTokenCipher, (t) => t),
    bearerTokenLast4: body.bearerToken === undefined ? current.bearerTokenLast4 : (body.bearerToken?.slice(-4) ?? null),
    headersCipher: sealed(deps, headers, current.headersCipher, (h) => JSON.stringify(h)),
    headerNames: headers === undefined ? current.headerNames : Object.keys(headers ?? {}),
    shared: body.shared ?? current.shared,
    allowPrivateAddress: body.allowPrivateAddress ?? current.allowPrivateAddress,
  };
  await requireAllowedAddress(deps, values);
  await updateServer(deps.db.kysely, id, values, isoNow(deps.clock));
  await refreshOnce(deps, (await findServer(deps.db.kysely, id))!);
  return reread(deps, viewer, id);
}

export async function removeServer(deps: McpServers, viewer: Viewer, id: number): Promise<{ message: string }> {
  await requireEditable(deps, viewer, id);
  await deleteServer(deps.db.kysely, id);
  return { message: MCP_MESSAGES.deleted };
}

/** Lists the tools again; the address is checked again too, as DNS may have changed since it was saved. */
export async function refreshServer(deps: McpServers, viewer: Viewer, id: number): Promise<McpServer> {
  const row = await requireVisible(deps, viewer, id);
  await refreshOnce(deps, row);
  return reread(deps, viewer, id);
}

/** The servers a bot's owner may use, among `ids`: their own and everyone's. */
export const usableServers = (deps: Pick<McpServers, 'db'>, ownerId: number, ids: readonly number[]) =>
  findUsableServers(deps.db.kysely, ownerId, ids);

/**
 * A bot's tools checked against the servers its owner may use. `require` refuses the first one on a server the
 * owner cannot use (400), as creating or editing a bot does; `drop` leaves them out, as an import from another
 * instance and a restored version do (the server may be gone since).
 */
export async function checkBotTools(
  db: Executor,
  ownerId: number,
  tools: readonly BotTool[],
  mode: 'require' | 'drop',
): Promise<BotTool[]> {
  const usable = new Set(
    (await findUsableServers(db, ownerId, [...new Set(tools.map((t) => t.serverId))])).map((row) => row.id),
  );
  const missing = tools.find((t) => !usable.has(t.serverId));
  if (missing && mode === 'require') throw new AppError('VALIDATION', MCP_MESSAGES.toolNotFound(missing.name));
  return tools.filter((t) => usable.has(t.serverId));
}
