import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

/** A readable article page, long enough for Readability to take it as one. */
export function articlePage(title: string, paragraph = `${title} is explained here in plain words.`): string {
  const body = Array.from({ length: 4 }, (_, i) => `<p>${paragraph} Paragraph ${i + 1} adds detail.</p>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head>
<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>${body}<h2>Details</h2><p>${paragraph}</p></article></body></html>`;
}

const MB = 1024 * 1024;
/** 20 MB of zeros squeezed into a few kilobytes: far over any page limit once inflated. */
const ZEROS = Buffer.alloc(20 * MB);
let bombs: { gzip: Buffer; deflate: Buffer; br: Buffer } | undefined;
const decompressionBombs = () =>
  (bombs ??= {
    gzip: gzipSync(ZEROS, { level: 9 }),
    deflate: deflateSync(ZEROS, { level: 9 }),
    br: brotliCompressSync(ZEROS, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  });

/** Path → handler; a handler may write and end the response, or leave it open on purpose. */
export type Route = (req: IncomingMessage, res: ServerResponse, site: FakeWeb) => void;

const html =
  (body: string, status = 200): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };

/** Streams `total` bytes of filler HTML without a Content-Length, stopping early when the client leaves. */
function streamFiller(res: ServerResponse, total: number) {
  res.writeHead(200, { 'content-type': 'text/html' });
  const chunk = Buffer.from('<p>filler</p>'.padEnd(64 * 1024, ' '));
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

const DEFAULT_ROUTES: Record<string, Route> = {
  '/page': html(articlePage('Vitamin D')),
  '/other': html(articlePage('Iron', 'Iron carries oxygen in the blood.')),
  '/text': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Plain text, read as it is.'),
  '/latin1': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('caf\xe9', 'latin1')),
  '/pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 fake bytes'),
  '/image': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
  '/no-type': (_req, res) => res.writeHead(200).end('<p>no content type</p>'),
  '/missing': html('<p>Not here</p>', 404),
  '/gzip-page': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
      .end(gzipSync(articlePage('Compressed'))),
  '/br-page': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' })
      .end(brotliCompressSync(articlePage('Brotli'))),
  '/gzip-bomb': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(decompressionBombs().gzip),
  '/deflate-bomb': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' })
      .end(decompressionBombs().deflate),
  '/br-bomb': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }).end(decompressionBombs().br),
  '/huge': (_req, res) => streamFiller(res, 50 * MB),
  '/huge-declared': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * MB) }).end(),
  // Headers at once, then a trickle that never finishes.
  '/never-ends': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => res.write('<p>still going</p>'), 50);
    res.once('close', () => clearInterval(timer));
  },
  // Accepts the request and never answers.
  '/hang': () => {},
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
  // /hops/3 → /hops/2 → /hops/1 → /hops/0 → /page
  '/hops': (req, res) => {
    const n = Number(req.url!.split('/')[2] ?? 0);
    res.writeHead(302, { location: n > 0 ? `/hops/${n - 1}` : '/page' }).end();
  },
  // /redirect?to=<absolute or relative address>
  '/redirect': (req, res) => {
    const to = new URL(req.url!, 'http://x').searchParams.get('to') ?? '/page';
    res.writeHead(302, { location: to }).end();
  },
};

export interface FakeWeb {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** TCP connections accepted so far: what an SSRF test proves is zero. */
  connections: number;
  /** Paths requested, in order. */
  requests: string[];
  /** Adds or replaces a route. */
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

/**
 * Fake web sites on a loopback port, with pages, redirects, and the hostile answers a page fetch must survive:
 * a page that never ends, a 50 MB page, redirect loops, wrong content types, decompression bombs.
 * Routes match on the first path segment (`/hops/3` → `/hops`). Listens on `host` (a loopback address).
 */
export async function startFakeWeb({ host = '127.0.0.1', port = 0 } = {}): Promise<FakeWeb> {
  const routes: Record<string, Route> = { ...DEFAULT_ROUTES };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    site.requests.push(req.url!);
    const path = new URL(req.url!, 'http://x').pathname;
    const route = routes[path] ?? routes[`/${path.split('/')[1]}`];
    if (route) route(req, res, site);
    else html('<p>Unknown page</p>', 404)(req, res, site);
  });
  server.on('connection', (socket) => {
    site.connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const bound = (server.address() as AddressInfo).port;
  const site: FakeWeb = {
    url: `http://${host}:${bound}`,
    port: bound,
    connections: 0,
    requests: [],
    route: (path, handler) => void (routes[path] = handler),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return site;
}
