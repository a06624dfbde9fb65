/** JSON over HTTP to a Botty server at `url`, the way the tests talk to it. */
export function apiClient(url: string) {
  type Init = { body?: unknown; token?: string; headers?: Record<string, string> };
  /** The response itself, for a test that reads a stream or its headers. */
  const send = (method: string, path: string, init: Init = {}) =>
    fetch(url + path, {
      method,
      headers: {
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
  async function request<T = any>(
    method: string,
    path: string,
    init: Init = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const res = await send(method, path, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, body: body as T, headers: res.headers };
  }
  return { url, request, send };
}

export type ApiClient = ReturnType<typeof apiClient>;
