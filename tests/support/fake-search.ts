import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeSearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  api: 'searxng' | 'brave' | 'tavily';
  /** The query as the provider received it, site filters included. */
  query: string;
  headers: IncomingHttpHeaders;
  /** Tavily's JSON body. */
  body?: Record<string, unknown>;
}

/** `results` answers normally; `error` answers 500; `hang` accepts and never answers; `garbage` answers 200 with HTML. */
export type SearchMode = 'results' | 'error' | 'hang' | 'garbage';

export interface FakeSearch {
  url: string;
  requests: SearchRequest[];
  mode: SearchMode;
  /** What a search answers with: a fixed list or one made from the request. */
  results: FakeSearchResult[] | ((request: SearchRequest) => FakeSearchResult[]);
  close(): Promise<void>;
}

/**
 * One loopback server speaking the three providers' APIs: SearXNG (`GET /search?q=&format=json`), Brave
 * (`GET /res/v1/web/search?q=`) and Tavily (`POST /search` with a JSON body). It records every request.
 */
export async function startFakeSearch(results: FakeSearch['results'] = []): Promise<FakeSearch> {
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    let request: SearchRequest;
    if (req.method === 'POST' && url.pathname === '/search') {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const body = JSON.parse(text) as Record<string, unknown>;
      request = { api: 'tavily', query: String(body.query), headers: req.headers, body };
    } else if (url.pathname === '/search' && url.searchParams.get('format') === 'json') {
      request = { api: 'searxng', query: url.searchParams.get('q') ?? '', headers: req.headers };
    } else if (url.pathname === '/res/v1/web/search') {
      request = { api: 'brave', query: url.searchParams.get('q') ?? '', headers: req.headers };
    } else {
      res.writeHead(404).end();
      return;
    }
    fake.requests.push(request);
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      return;
    }
    if (fake.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Welcome to my search page</p>');
      return;
    }
    const list = typeof fake.results === 'function' ? fake.results(request) : fake.results;
    const answer =
      request.api === 'brave'
        ? { web: { results: list.map((r) => ({ title: r.title, url: r.url, description: r.snippet })) } }
        : { results: list.map((r) => ({ title: r.title, url: r.url, content: r.snippet })) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeSearch = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    mode: 'results',
    results,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return fake;
}
