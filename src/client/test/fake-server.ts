import { vi } from 'vitest';

/** What the client sent, as the server would read it. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type JsonBody = Record<string, unknown> | unknown[];
type Handler = (request: SentRequest, signal: AbortSignal | undefined) => Response | Promise<Response>;

/** A reply stream the test writes as the server would (STREAM_DESCRIPTION in replies.routes.ts). */
export interface FakeStream {
  request: SentRequest;
  /** Sends one event with the next id; returns that id. */
  send: (event: string, data: unknown) => string;
  /** Ends the response, as the server does after the final event. */
  end: () => void;
  /** Breaks the connection off mid-response. */
  drop: () => void;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const abortError = () => new DOMException('The operation was aborted.', 'AbortError');

function openStream(request: SentRequest, signal: AbortSignal | undefined): { response: Response; stream: FakeStream } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let open = true;
  const finish = (how: () => void) => {
    if (!open) return;
    open = false;
    how();
  };
  // As with a real fetch, leaving (the AbortSignal) breaks the reading off.
  signal?.addEventListener('abort', () => finish(() => controller.error(abortError())));
  let lastId = Number(request.headers.get('Last-Event-ID') ?? 0);
  const stream: FakeStream = {
    request,
    send(event, data) {
      const id = String(++lastId);
      if (open)
        controller.enqueue(new TextEncoder().encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      return id;
    },
    end: () => finish(() => controller.close()),
    drop: () => finish(() => controller.error(new TypeError('network error'))),
  };
  const headers = { 'content-type': 'text/event-stream; charset=utf-8' };
  return { response: new Response(body, { status: 200, headers }), stream };
}

/**
 * The API at the network boundary: `fetch` answered from routes the test declares, every request kept. An
 * unknown route answers 404, which the client logs, so the console.error guard names it.
 */
export function fakeServer() {
  const routes = new Map<string, Handler>();
  const requests: SentRequest[] = [];
  const key = (method: string, path: string) => `${method} ${path}`;

  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: SentRequest = {
      method: init.method ?? 'GET',
      path: url.pathname + url.search,
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : JSON.parse(text),
    };
    requests.push(request);
    if (init.signal?.aborted) throw abortError();
    const handler = routes.get(key(request.method, url.pathname));
    return handler ? handler(request, init.signal ?? undefined) : json(404, { message: `No route ${input}` });
  });

  return {
    /** The requests sent to one route so far. */
    sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    on(method: string, path: string, handler: Handler) {
      routes.set(key(method, path), handler);
    },
    /** Answers with JSON: a fixed body, or one per request. */
    json(method: string, path: string, body: JsonBody | ((request: SentRequest) => JsonBody), status = 200) {
      routes.set(key(method, path), (request) => json(status, typeof body === 'function' ? body(request) : body));
    },
    /** Answers with reply streams; `next()` waits for the client to open the next one. */
    streams(method: string, path: string) {
      const opened: FakeStream[] = [];
      const waiting: ((stream: FakeStream) => void)[] = [];
      routes.set(key(method, path), (request, signal) => {
        const { response, stream } = openStream(request, signal);
        const waiter = waiting.shift();
        if (waiter) waiter(stream);
        else opened.push(stream);
        return response;
      });
      return {
        next: () =>
          new Promise<FakeStream>((resolve) => {
            const stream = opened.shift();
            if (stream) resolve(stream);
            else waiting.push(resolve);
          }),
      };
    },
  };
}
