import type { ConnectionKind, ConnectionTest } from '@shared/contracts/admin';

/** What the admin's Test button needs to reach a connection's server. */
export interface ProbeTarget {
  kind: ConnectionKind;
  baseUrl: string;
  apiKey: string | undefined;
}

const PROBE_TIMEOUT_MS = 10_000;
const ANTHROPIC_VERSION = '2023-06-01';

class ProbeError extends Error {}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'error' });
  } catch (err) {
    const reason = err instanceof Error && err.name === 'TimeoutError' ? 'no answer in 10 seconds' : 'not reachable';
    throw new ProbeError(`${new URL(url).origin} is ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    const hint = response.status === 401 || response.status === 403 ? ' (check the API key)' : '';
    throw new ProbeError(`The server answered ${response.status} ${response.statusText}${hint}`.trim());
  }
  try {
    return await response.json();
  } catch {
    throw new ProbeError('The server did not answer with JSON: is this the API’s base URL?');
  }
}

const listed = (body: unknown, field: 'data' | 'models'): unknown[] => {
  const items = (body as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(items)) throw new ProbeError('The server’s answer holds no list of models');
  return items;
};

/** Ollama's own listing, with sizes, when the base URL's origin is an Ollama; null otherwise. */
async function ollamaModels(baseUrl: string) {
  try {
    const models = listed(await getJson(`${new URL(baseUrl).origin}/api/tags`, {}), 'models');
    return models.map((m) => {
      const { name, size } = m as { name?: unknown; size?: unknown };
      return { model: String(name), sizeBytes: typeof size === 'number' ? size : null };
    });
  } catch {
    return null;
  }
}

function authHeaders(target: ProbeTarget): Record<string, string> {
  const key = target.apiKey;
  if (target.kind === 'anthropic')
    return { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) };
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** The models a connection's server offers (OpenAI- and Anthropic-style listings, or Ollama's with sizes). */
export async function probeModels(target: ProbeTarget): Promise<ConnectionTest> {
  try {
    const ollama = target.kind === 'openai-compatible' ? await ollamaModels(target.baseUrl) : null;
    if (ollama) return { ok: true, models: ollama, error: null };
    const body = await getJson(`${target.baseUrl.replace(/\/+$/, '')}/models`, authHeaders(target));
    const models = listed(body, 'data').map((m) => ({
      model: String((m as { id?: unknown }).id),
      sizeBytes: null,
    }));
    return { ok: true, models, error: null };
  } catch (err) {
    if (!(err instanceof ProbeError)) throw err;
    return { ok: false, models: [], error: err.message };
  }
}
