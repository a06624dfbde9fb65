import {
  ADMIN_MESSAGES,
  ENV_CONNECTION_ID,
  type DefaultModels,
  type ModelChoice,
  type ModelTask,
} from '@shared/contracts/admin';
import type { EmbeddingModel } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../lib/errors';
import { createAi, createEmbeddingModel, type Ai } from './providers';

/** A connection as the catalog needs it: where, how, which models; the key decrypted only when a model is built. */
export interface CatalogConnection {
  id: number;
  name: string;
  kind: Exclude<Config['llm']['provider'], 'offline'>;
  baseUrl: string | undefined;
  apiKey: () => string | undefined;
  enabledModels: readonly string[];
  /** Changes whenever the connection does (its updated_at): models built for an older version are dropped. */
  version: string;
}

/** Where the catalog reads connections and task defaults, on every resolution (several instances share them). */
export interface ModelSource {
  connections(): Promise<CatalogConnection[]>;
  defaults(): Promise<DefaultModels>;
}

export interface ResolvedModel {
  ai: Ai;
  /** `connectionId/model`; null offline. */
  id: string | null;
  label: string | null;
  /** A model was asked for (a bot's) and is no longer enabled: another one answers. */
  fellBack: boolean;
}

export interface ModelCatalog {
  /** The model for a task: the one asked for when enabled, else the task's default, the chat default, the env's. */
  resolve(task: ModelTask, requested?: string | null): Promise<ResolvedModel>;
  /** The enabled models, the environment's connection first. */
  list(): Promise<ModelChoice[]>;
  /**
   * The embeddings model: the admin's default when enabled, else the environment's LLM_EMBEDDING_MODEL (`env`
   * true: vectors stored before model ids were recorded are its own); null for none (or Anthropic's).
   */
  embeddings(): Promise<{ id: string; model: EmbeddingModel<string>; env: boolean } | null>;
}

export const modelIdOf = (connectionId: number, model: string) => `${connectionId}/${model}`;

/** The model name part of a model id (`3/llama3.1:8b` → `llama3.1:8b`; names may contain slashes). */
export const modelNameOf = (id: string) => id.slice(id.indexOf('/') + 1);

const OFFLINE: ResolvedModel = {
  ai: { provider: 'offline', modelId: null, model: null },
  id: null,
  label: null,
  fellBack: false,
};

function choicesOf(
  connections: readonly CatalogConnection[],
): Map<string, ModelChoice & { connection: CatalogConnection }> {
  const choices = new Map<string, ModelChoice & { connection: CatalogConnection }>();
  for (const connection of connections) {
    for (const model of connection.enabledModels) {
      const id = modelIdOf(connection.id, model);
      choices.set(id, { id, label: `${model} · ${connection.name}`, connectionId: connection.id, model, connection });
    }
  }
  return choices;
}

export function createModelCatalog(
  source: ModelSource,
  log: FastifyBaseLogger,
  /** LLM_EMBEDDING_MODEL, on the environment's connection. */
  envEmbeddingModel?: string,
): ModelCatalog {
  // Provider clients per connection version and model; a changed connection gets new ones.
  const built = new Map<string, { version: string; ai: Promise<Ai> }>();

  function aiFor(connection: CatalogConnection, model: string): Promise<Ai> {
    const key = modelIdOf(connection.id, model);
    const cached = built.get(key);
    if (cached?.version === connection.version) return cached.ai;
    for (const [k, v] of built)
      if (k.startsWith(`${connection.id}/`) && v.version !== connection.version) built.delete(k);
    const ai = createAi(
      { provider: connection.kind, baseUrl: connection.baseUrl, apiKey: connection.apiKey(), model },
      log,
    );
    built.set(key, { version: connection.version, ai });
    return ai;
  }

  return {
    async list() {
      return [...choicesOf(await source.connections()).values()].map(({ connection: _, ...choice }) => choice);
    },
    async embeddings() {
      const [connections, defaults] = await Promise.all([source.connections(), source.defaults()]);
      const chosen = defaults.embeddings ? choicesOf(connections).get(defaults.embeddings) : undefined;
      const env = connections.find((c) => c.id === ENV_CONNECTION_ID);
      const [connection, name] = chosen ? [chosen.connection, chosen.model] : [env, envEmbeddingModel];
      if (!connection || !name) return null;
      const llm = { provider: connection.kind, baseUrl: connection.baseUrl, apiKey: connection.apiKey(), model: name };
      const model = await createEmbeddingModel(llm, name);
      return model ? { id: modelIdOf(connection.id, name), model, env: !chosen } : null;
    },
    async resolve(task, requested) {
      const [connections, defaults] = await Promise.all([source.connections(), source.defaults()]);
      const choices = choicesOf(connections);
      // A chat model cannot stand in for an embeddings model.
      const fallbacks = task === 'embeddings' ? [] : [defaults.chat, ...choices.keys()];
      const candidates = [requested, defaults[task], ...fallbacks];
      const id = candidates.find((c): c is string => !!c && choices.has(c));
      if (!id) return OFFLINE;
      const choice = choices.get(id)!;
      const fellBack = !!requested && requested !== id;
      if (fellBack) log.warn({ requested, task, model: id }, 'the model asked for is not enabled; another one answers');
      return { ai: await aiFor(choice.connection, choice.model), id, label: choice.label, fellBack };
    },
  };
}

/** A model someone chose (a bot's, a task's default) must be enabled now; null (Default) always is. */
export async function requireEnabledModel(catalog: ModelCatalog, id: string | null | undefined): Promise<void> {
  if (id == null) return;
  if (!(await catalog.list()).some((m) => m.id === id)) throw new AppError('VALIDATION', ADMIN_MESSAGES.modelUnknown);
}
