import type { McpTransport } from '@shared/contracts/mcp-servers';
import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';
import type { ListedTool } from './mcp-client';

export interface McpServerValues {
  name: string;
  url: string;
  transport: McpTransport;
  /** Sealed by lib/secret-box.ts; only the service opens them, to connect. */
  bearerTokenCipher: string | null;
  bearerTokenLast4: string | null;
  /** The header values as one sealed JSON object. */
  headersCipher: string | null;
  headerNames: string[];
  shared: boolean;
  allowPrivateAddress: boolean;
}

/** How the last connection went, and what it listed. */
export interface McpServerListing {
  status: 'ok' | 'error' | 'unknown';
  error: string | null;
  tools: ListedTool[];
  refreshedAt: string | null;
}

export type McpServerRow = McpServerValues &
  McpServerListing & { id: number; userId: number; createdAt: string; updatedAt: string };

const columns = [
  'id',
  'user_id',
  'shared',
  'name',
  'url',
  'transport',
  'bearer_token_cipher',
  'bearer_token_last4',
  'headers_cipher',
  'header_names',
  'allow_private_address',
  'status',
  'error',
  'tools',
  'refreshed_at',
  'created_at',
  'updated_at',
] as const;

function toRow(r: {
  id: number;
  user_id: number;
  shared: boolean | number;
  name: string;
  url: string;
  transport: McpTransport;
  bearer_token_cipher: string | null;
  bearer_token_last4: string | null;
  headers_cipher: string | null;
  header_names: unknown;
  allow_private_address: boolean | number;
  status: McpServerListing['status'];
  error: string | null;
  tools: unknown;
  refreshed_at: string | null;
  created_at: string;
  updated_at: string;
}): McpServerRow {
  return {
    id: r.id,
    userId: r.user_id,
    shared: Boolean(r.shared),
    name: r.name,
    url: r.url,
    transport: r.transport,
    bearerTokenCipher: r.bearer_token_cipher,
    bearerTokenLast4: r.bearer_token_last4,
    headersCipher: r.headers_cipher,
    headerNames: fromJson(r.header_names) as string[],
    allowPrivateAddress: Boolean(r.allow_private_address),
    status: r.status,
    error: r.error,
    tools: fromJson(r.tools) as ListedTool[],
    refreshedAt: r.refreshed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const valueColumns = (v: McpServerValues) => ({
  name: v.name,
  url: v.url,
  transport: v.transport,
  bearer_token_cipher: v.bearerTokenCipher,
  bearer_token_last4: v.bearerTokenLast4,
  headers_cipher: v.headersCipher,
  header_names: toJson(v.headerNames),
  shared: v.shared,
  allow_private_address: v.allowPrivateAddress,
});

const select = (db: Executor) => db.selectFrom('mcp_servers').select(columns);

/** The servers `userId` may use: their own and the ones added for everyone, oldest first. */
export async function findUsableServers(
  db: Executor,
  userId: number,
  ids?: readonly number[],
): Promise<McpServerRow[]> {
  if (ids && ids.length === 0) return [];
  let query = select(db).where((eb) => eb.or([eb('user_id', '=', userId), eb('shared', '=', true)]));
  if (ids) query = query.where('id', 'in', [...ids]);
  return (await query.orderBy('id').execute()).map(toRow);
}

export async function findServer(db: Executor, id: number): Promise<McpServerRow | undefined> {
  const row = await select(db).where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

export async function insertServer(
  db: Executor,
  userId: number,
  values: McpServerValues,
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('mcp_servers')
    .values({ ...valueColumns(values), user_id: userId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateServer(db: Executor, id: number, values: McpServerValues, now: string) {
  await db
    .updateTable('mcp_servers')
    .set({ ...valueColumns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Records what a connection listed. `updatedAt` guards it: a listing that started before the server's settings
 * changed is not written over the newer settings' (their own refresh writes theirs).
 */
export async function saveListing(db: Executor, id: number, updatedAt: string, listing: McpServerListing) {
  await db
    .updateTable('mcp_servers')
    .set({
      status: listing.status,
      error: listing.error,
      tools: toJson(listing.tools),
      refreshed_at: listing.refreshedAt,
    })
    .where('id', '=', id)
    .where('updated_at', '=', updatedAt)
    .execute();
}

export async function deleteServer(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('mcp_servers').where('id', '=', id).execute();
}
