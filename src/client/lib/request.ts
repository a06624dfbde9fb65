import type { QueryFunction } from '@tanstack/react-query';
import { getAuthToken } from '@/lib/storage';

export interface ApiFieldError {
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

function headers(hasBody: boolean): Headers {
  const result = new Headers();
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
  { body, signal }: { body?: unknown; signal?: AbortSignal } = {},
) {
  const res = await fetch(url, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
    signal,
  });
  await throwIfNotOk(res);
  return res;
}

/** Parsed JSON for JSON responses, the raw Response otherwise. */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  return (await readBody(await apiFetch(method, url, { body }))) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), { headers: headers(false), credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await readBody(res)) as T;
  };
}
