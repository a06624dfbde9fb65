import type { ConnectionKind } from '@shared/contracts/admin';
import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/json';

export interface ConnectionValues {
  name: string;
  kind: ConnectionKind;
  baseUrl: string | null;
  /** Sealed by lib/secret-box.ts; only the service opens it, to call the connection's server. */
  apiKeyCipher: string | null;
  apiKeyLast4: string | null;
  allowPrivateAddress: boolean;
  enabledModels: string[];
}

export type ConnectionRow = ConnectionValues & { id: number; createdAt: string; updatedAt: string };

const columns = [
  'id',
  'name',
  'kind',
  'base_url',
  'api_key_cipher',
  'api_key_last4',
  'allow_private_address',
  'enabled_models',
  'created_at',
  'updated_at',
] as const;

function toRow(r: {
  id: number;
  name: string;
  kind: ConnectionKind;
  base_url: string | null;
  api_key_cipher: string | null;
  api_key_last4: string | null;
  allow_private_address: boolean | number;
  enabled_models: unknown;
  created_at: string;
  updated_at: string;
}): ConnectionRow {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    baseUrl: r.base_url,
    apiKeyCipher: r.api_key_cipher,
    apiKeyLast4: r.api_key_last4,
    allowPrivateAddress: Boolean(r.allow_private_address),
    enabledModels: fromJson(r.enabled_models) as string[],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const toColumns = (v: ConnectionValues) => ({
  name: v.name,
  kind: v.kind,
  base_url: v.baseUrl,
  api_key_cipher: v.apiKeyCipher,
  api_key_last4: v.apiKeyLast4,
  allow_private_address: v.allowPrivateAddress,
  enabled_models: toJson(v.enabledModels),
});

export async function findConnections(db: Executor): Promise<ConnectionRow[]> {
  return (await db.selectFrom('ai_connections').select(columns).orderBy('id').execute()).map(toRow);
}

export async function findConnection(db: Executor, id: number): Promise<ConnectionRow | undefined> {
  const row = await db.selectFrom('ai_connections').select(columns).where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

export async function insertConnection(db: Executor, values: ConnectionValues, now: string): Promise<number> {
  const { id } = await db
    .insertInto('ai_connections')
    .values({ ...toColumns(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateConnection(db: Executor, id: number, values: ConnectionValues, now: string) {
  await db
    .updateTable('ai_connections')
    .set({ ...toColumns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteConnection(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('ai_connections').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
