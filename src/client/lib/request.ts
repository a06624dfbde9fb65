import { takeEarly } from '@/lib/early-requests';
import { getAuthToken } from '@/lib/storage';

interface ApiFieldError {
  path: string;
  message: string;
}

/** The JSON error body the server sends, plus the extra fields some endpoints add. */
export interface ApiErrorBody {
  message?: string;
  code?: string;
  requestId?: string;
  errors?: ApiFieldError[];
  needsVerification?: boolean;
  email?: string;
}

/** Keeps the status and parsed body so screens can react to them; the message follows spec §7. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: ApiErrorBody | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.data?.message || undefined : undefined;
}

/** The request never got an answer (offline, the server down, the connection cut): fetch rejects with a TypeError. */
export const isNetworkError = (error: unknown) => error instanceof TypeError;

function parseBody(text: string): ApiErrorBody | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as ApiErrorBody) : null;
  } catch {
    return null;
  }
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text();
  const error = new ApiError(res.status, `${res.status}: ${text || res.statusText}`, parseBody(text));
  console.error(error.message);
  throw error;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const type = res.headers.get('content-type') ?? '';
  return type.includes('json') ? res.json() : res;
}

function headers(hasBody: boolean, extra?: Record<string, string>): Headers {
  const result = new Headers(extra);
  // Fastify rejects an empty body declared as JSON, so the type is only sent with a body.
  if (hasBody) result.set('Content-Type', 'application/json');
  const token = getAuthToken();
  if (token) result.set('Authorization', `Bearer ${token}`);
  return result;
}

/** The shared request behaviour (spec §7) up to an OK response, whose body is left to the caller to read. */
export async function apiFetch(
  method: string,
  url: string,
  {
    body,
    signal,
    allowUnauthorized = false,
    headers: extraHeaders,
  }: { body?: unknown; signal?: AbortSignal; allowUnauthorized?: boolean; headers?: Record<string, string> } = {},
) {
  // A GET the page sent before its code had loaded (lib/early-requests.ts) is answered by that request.
  const early = method === 'GET' && body === undefined && !extraHeaders ? takeEarly(url, getAuthToken()) : undefined;
  const res = await (early ??
    fetch(url, {
      method,
      // A Blob (a CSV file, say) goes as it is, typed by its own `type`.
      headers: headers(body !== undefined && !(body instanceof Blob), extraHeaders),
      body: body === undefined || body instanceof Blob ? body : JSON.stringify(body),
      credentials: 'include',
      signal,
    }));
  // The early request was sent without the caller's signal: a caller that gave up still gets its abort.
  if (early) signal?.throwIfAborted();
  // A 401 the caller expects (a signed-out visitor) is an answer, not an error to log.
  if (!(allowUnauthorized && res.status === 401)) await throwIfNotOk(res);
  return res;
}

/** Parsed JSON for JSON responses, the raw Response otherwise. */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  return (await readBody(await apiFetch(method, url, { body }))) as T;
}
