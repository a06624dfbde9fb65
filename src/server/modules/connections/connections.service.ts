import { lookup } from 'node:dns/promises';
import {
  ADMIN_MESSAGES,
  ENV_CONNECTION_ID,
  type Connection,
  type ConnectionTest,
  type CreateConnectionBody,
  type PatchConnectionBody,
} from '@shared/contracts/admin';
import type { FastifyBaseLogger } from 'fastify';
import type { CatalogConnection, ModelCatalog, ModelSource } from '../../ai/model-catalog';
import { DEFAULT_MODEL_IDS } from '../../ai/providers';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { InstanceNotices } from '../../lib/instance-notices';
import { remembered } from '../../lib/remembered';
import type { SecretBox } from '../../lib/secret-box';
import { getAdminSettings, SETTINGS_REMEMBERED_MS } from '../settings/settings.service';
import { hostRefusalReason } from '../web/address-policy';
import { probeModels } from './connection-probe';
import {
  deleteConnection,
  findConnection,
  findConnections,
  insertConnection,
  updateConnection,
  type ConnectionRow,
  type ConnectionValues,
} from './connections.repository';

export interface ConnectionsDeps {
  db: Db;
  clock: Clock;
  /** The environment's connection (LLM_*), shown first and never stored. */
  llm: Config['llm'];
  secrets: SecretBox;
  log: FastifyBaseLogger;
  notices: InstanceNotices;
}

/** The stored connections as every reply's model resolution reads them: remembered as the settings are. */
const catalogConnections = remembered(SETTINGS_REMEMBERED_MS, (db: Db) => findConnections(db.kysely));

/** `db`'s connections are read again after a change on any instance, not at the end of their lifetime. */
export const forgetConnectionsOnChange = (notices: InstanceNotices, db: Db) =>
  notices.on('connections-changed', () => catalogConnections.forget(db));

/** After a write: this instance reads the connections again at once, and the others are told to. */
async function connectionsChanged(deps: ConnectionsDeps) {
  catalogConnections.forget(deps.db);
  await deps.notices.tell('connections-changed');
}

/** Where OpenAI and Anthropic connections go when no base URL is given: their public APIs. */
const PUBLIC_BASE_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' } as const;
const ENV_CONNECTION_NAME = 'Environment (LLM_*)';

const resolveHost = async (name: string) => (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);

/** The environment's connection, or null offline. */
function envConnection(llm: Config['llm']): Connection | null {
  if (llm.provider === 'offline') return null;
  const model = llm.model ?? DEFAULT_MODEL_IDS[llm.provider as keyof typeof DEFAULT_MODEL_IDS];
  return {
    id: ENV_CONNECTION_ID,
    name: ENV_CONNECTION_NAME,
    kind: llm.provider,
    baseUrl: llm.baseUrl ?? null,
    hasApiKey: !!llm.apiKey,
    apiKeyLast4: llm.apiKey ? llm.apiKey.slice(-4) : null,
    // The operator's own address: the admins' address checks do not apply to it.
    allowPrivateAddress: true,
    enabledModels: model ? [model] : [],
    readOnly: true,
    createdAt: null,
  };
}

const toConnection = (row: ConnectionRow): Connection => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  baseUrl: row.baseUrl,
  hasApiKey: row.apiKeyCipher !== null,
  apiKeyLast4: row.apiKeyLast4,
  allowPrivateAddress: row.allowPrivateAddress,
  enabledModels: row.enabledModels,
  readOnly: false,
  createdAt: row.createdAt,
});

const baseUrlOf = (row: Pick<ConnectionRow, 'kind' | 'baseUrl'>) =>
  row.baseUrl ?? (row.kind === 'openai-compatible' ? null : PUBLIC_BASE_URLS[row.kind]);

/** Loopback and private servers (an Ollama next to Botty) only when an admin allowed them for this connection. */
async function requireAllowedAddress(values: Pick<ConnectionValues, 'kind' | 'baseUrl' | 'allowPrivateAddress'>) {
  const baseUrl = baseUrlOf(values);
  if (!baseUrl) throw new AppError('VALIDATION', 'Base URL: required for an OpenAI-compatible connection');
  if (values.allowPrivateAddress) return;
  const reason = await hostRefusalReason(new URL(baseUrl).hostname, resolveHost);
  if (reason) {
    throw new AppError(
      'VALIDATION',
      `Base URL: this address is not allowed (${reason}). For a server on this machine or network, allow a private address.`,
    );
  }
}

async function requireStored(deps: ConnectionsDeps, id: number): Promise<ConnectionRow> {
  if (id === ENV_CONNECTION_ID) throw new AppError('CONFLICT', ADMIN_MESSAGES.connectionReadOnly);
  const row = await findConnection(deps.db.kysely, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.connectionNotFound);
  return row;
}

/** A new key sealed, '' or null removes it, undefined keeps the stored one. */
function keyColumns(deps: ConnectionsDeps, apiKey: string | null | undefined, current?: ConnectionRow) {
  if (apiKey === undefined) {
    return { apiKeyCipher: current?.apiKeyCipher ?? null, apiKeyLast4: current?.apiKeyLast4 ?? null };
  }
  if (!apiKey) return { apiKeyCipher: null, apiKeyLast4: null };
  return { apiKeyCipher: deps.secrets.seal(apiKey), apiKeyLast4: apiKey.slice(-4) };
}

export async function listConnections(deps: ConnectionsDeps): Promise<{ connections: Connection[] }> {
  const env = envConnection(deps.llm);
  const stored = (await findConnections(deps.db.kysely)).map(toConnection);
  return { connections: env ? [env, ...stored] : stored };
}

export async function createConnection(deps: ConnectionsDeps, body: CreateConnectionBody): Promise<Connection> {
  const values: ConnectionValues = {
    name: body.name,
    kind: body.kind,
    baseUrl: body.baseUrl ?? null,
    ...keyColumns(deps, body.apiKey),
    allowPrivateAddress: body.allowPrivateAddress ?? false,
    enabledModels: [],
  };
  await requireAllowedAddress(values);
  const id = await insertConnection(deps.db.kysely, values, isoNow(deps.clock));
  await connectionsChanged(deps);
  return toConnection((await findConnection(deps.db.kysely, id))!);
}

export async function changeConnection(
  deps: ConnectionsDeps,
  id: number,
  body: PatchConnectionBody,
): Promise<Connection> {
  const current = await requireStored(deps, id);
  const values: ConnectionValues = {
    name: body.name ?? current.name,
    kind: current.kind,
    baseUrl: body.baseUrl === undefined ? current.baseUrl : body.baseUrl,
    ...keyColumns(deps, body.apiKey, current),
    allowPrivateAddress: body.allowPrivateAddress ?? current.allowPrivateAddress,
    enabledModels: body.enabledModels ? [...new Set(body.enabledModels)] : current.enabledModels,
  };
  await requireAllowedAddress(values);
  await updateConnection(deps.db.kysely, id, values, isoNow(deps.clock));
  await connectionsChanged(deps);
  return toConnection((await findConnection(deps.db.kysely, id))!);
}

export async function removeConnection(deps: ConnectionsDeps, id: number): Promise<{ message: string }> {
  await requireStored(deps, id);
  await deleteConnection(deps.db.kysely, id);
  await connectionsChanged(deps);
  return { message: 'Connection deleted' };
}

/** Lists the server's models; the address is checked again, as DNS may have changed since it was saved. */
export async function testConnection(deps: ConnectionsDeps, id: number): Promise<ConnectionTest> {
  if (id === ENV_CONNECTION_ID) {
    const { llm } = deps;
    if (llm.provider === 'offline') throw new AppError('NOT_FOUND', ADMIN_MESSAGES.connectionNotFound);
    const baseUrl = llm.baseUrl ?? baseUrlOf({ kind: llm.provider, baseUrl: null })!;
    return probeModels({ kind: llm.provider, baseUrl, apiKey: llm.apiKey });
  }
  const row = await requireStored(deps, id);
  await requireAllowedAddress(row);
  return probeModels({ kind: row.kind, baseUrl: baseUrlOf(row)!, apiKey: openKey(deps, row) });
}

/** The key, or none when it was sealed with an earlier SECRET_KEY (README: rotating): the server then says 401. */
function openKey(deps: ConnectionsDeps, row: ConnectionRow): string | undefined {
  if (row.apiKeyCipher === null) return undefined;
  try {
    return deps.secrets.open(row.apiKeyCipher);
  } catch {
    deps.log.error(
      { connectionId: row.id },
      'this connection’s API key cannot be decrypted with SECRET_KEY; enter it again in Admin',
    );
    return undefined;
  }
}

/** What the model catalog reads on every resolution: the stored connections (the env's first) and the defaults. */
export function modelSource(deps: ConnectionsDeps): ModelSource {
  const env = envConnection(deps.llm);
  const envEntry: CatalogConnection | null =
    env && deps.llm.provider !== 'offline'
      ? {
          id: env.id,
          name: env.name,
          kind: deps.llm.provider,
          baseUrl: deps.llm.baseUrl,
          apiKey: () => deps.llm.apiKey,
          enabledModels: env.enabledModels,
          version: 'env',
        }
      : null;
  return {
    async connections() {
      const stored = (await catalogConnections.get(deps.db)).map((row): CatalogConnection => ({
        id: row.id,
        name: row.name,
        kind: row.kind,
        baseUrl: baseUrlOf(row) ?? undefined,
        apiKey: () => openKey(deps, row),
        enabledModels: row.enabledModels,
        // updated_at alone could repeat within a millisecond; the sealed key changes with every new key.
        version: `${row.updatedAt}|${row.baseUrl}|${row.apiKeyCipher}`,
      }));
      return envEntry ? [envEntry, ...stored] : stored;
    },
    defaults: async () => (await getAdminSettings(deps)).defaultModels,
  };
}

/** GET /api/models: the enabled models, and what Default means for chat now. */
export async function listModels(catalog: ModelCatalog) {
  const [models, chat] = await Promise.all([catalog.list(), catalog.resolve('chat')]);
  return { models, defaultModel: models.find((m) => m.id === chat.id) ?? null };
}
