import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { readableHtml } from '../../lib/readable-html';
import { hostAddress, nameRefusalReason, refusalReason } from './address-policy';
import { isTrustedHost } from './trusted-hosts';
import { WebError } from './web-error';

/** Where one request goes: the URL as asked (for Host and SNI) and the checked address the socket must reach. */
export interface ConnectTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** Opens one GET request to an already checked address. Tests inject one that records and refuses. */
export type Connector = (target: ConnectTarget, signal: AbortSignal) => Promise<RawResponse>;

/** The addresses a host name resolves to. */
export type Resolver = (hostname: string) => Promise<string[]>;

/** Reads a PDF's text; the knowledge-file extractor is plugged in here. */
export type PdfReader = (bytes: Uint8Array) => Promise<{ title?: string; text: string }>;

export interface SafeFetchOptions {
  /** UNSAFE outside tests: hosts (as written in the URL) let through although their addresses are refused. */
  allowHosts?: readonly string[];
  /** Ports allowed besides the scheme's default (80, 443). */
  allowPorts?: readonly number[];
  resolve?: Resolver;
  connect?: Connector;
  /** Without it a PDF is refused as an unsupported content type. */
  readPdf?: PdfReader;
  maxBytes?: number;
  maxRedirects?: number;
  connectTimeoutMs?: number;
  timeoutMs?: number;
  cacheTtlMs?: number;
}

export interface WebPage {
  /** The address the page was finally read from, after redirects. */
  url: string;
  title: string;
  text: string;
  contentType: string;
}

export interface FetchPageOptions {
  /** Domains the page and every redirect must stay within; empty trusts the whole public web. */
  trustedSources?: readonly string[];
  signal?: AbortSignal;
}

export type SafeFetch = (url: string, options?: FetchPageOptions) => Promise<WebPage>;

/** A file's bytes, whatever its content type says (the caller types it from the bytes), at most `maxBytes`. */
export type SafeDownload = (url: string, options: { maxBytes: number; signal?: AbortSignal }) => Promise<Uint8Array>;

const MB = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** A host as WHATWG URL spells it, so `::1`, `[::1]` and `0x7f.1` in the allow list match what URLs say. */
export const urlHostname = (host: string) => {
  const h = host.trim();
  return URL.canParse(`http://${h}`) ? new URL(`http://${h}`).hostname : new URL(`http://[${h}]`).hostname;
};

export const defaultResolve: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** node:http(s) with a DNS look-up that can only answer the address already checked: no second resolution. */
export function httpConnector(connectTimeoutMs: number): Connector {
  return ({ url, address, family }, signal) =>
    new Promise((resolve, reject) => {
      const pinned = ((_host, options, callback) => {
        if (options.all) callback(null, [{ address, family }]);
        else (callback as (e: null, a: string, f: number) => void)(null, address, family);
      }) as LookupFunction;
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'GET',
        agent: false,
        lookup: pinned,
        signal,
        headers: {
          'user-agent': 'Botty/0.1 (web research for a self-hosted assistant)',
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      request.once('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => request.destroy(new WebError('timeout', 'The page took too long to answer')),
          connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      request.once('response', (res) =>
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: res }),
      );
      request.once('error', reject);
      request.end();
    });
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim();
};

function decoder(charset: string | undefined) {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

interface CachedPage {
  page: WebPage;
  /** Every address visited on the way, so a cached redirect is checked against the next caller's sources. */
  chain: string[];
}

/**
 * The only way page content is fetched from the web. Every address, including each redirect target, is
 * checked (scheme, port, credentials, trusted sources, the resolved address) before anything connects, and the
 * connection goes to the address that was checked.
 */
export const createSafeFetch = (options: SafeFetchOptions = {}): SafeFetch => safeWeb(options).fetchPage;

/** The same checks as `createSafeFetch`, for a file's bytes (an image given by URL); nothing is cached. */
export const createSafeDownload = (options: SafeFetchOptions = {}): SafeDownload => safeWeb(options).download;

function safeWeb(options: SafeFetchOptions) {
  const maxBytes = options.maxBytes ?? 5 * MB;
  const maxRedirects = options.maxRedirects ?? 5;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const resolve = options.resolve ?? defaultResolve;
  const connect = options.connect ?? httpConnector(options.connectTimeoutMs ?? 5_000);
  const allowPorts = new Set(options.allowPorts ?? []);
  const allowHosts = new Set((options.allowHosts ?? []).map(urlHostname));
  const cache = new LRUCache<string, CachedPage>({ max: 64, ttl: options.cacheTtlMs ?? 5 * 60_000 });
  const tooLarge = (limit: number) =>
    new WebError('too-large', `The page is too large (over ${+(limit / MB).toFixed(1)} MB)`);

  function checkTrusted(url: URL, trustedSources: readonly string[]) {
    if (!isTrustedHost(url.hostname, trustedSources)) {
      throw new WebError('untrusted', `Outside the trusted sources: ${url.hostname}`);
    }
  }

  /** Everything decided from the URL alone, then the address it leads to. */
  async function target(url: URL, trustedSources: readonly string[]): Promise<ConnectTarget> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebError('refused', `Only http and https addresses can be opened, not ${url.protocol}`);
    }
    if (url.username || url.password) {
      throw new WebError('refused', 'Addresses with a user name or password are not allowed');
    }
    const allowed = allowHosts.has(url.hostname);
    if (url.port && !allowed && !allowPorts.has(Number(url.port))) {
      throw new WebError('refused', `This port is not allowed: ${url.port}`);
    }
    checkTrusted(url, trustedSources);
    let addresses: string[];
    const literal = hostAddress(url.hostname);
    if (literal) {
      addresses = [literal];
    } else {
      const nameReason = allowed ? null : nameRefusalReason(url.hostname);
      if (nameReason) throw new WebError('refused', `This address is not allowed: ${nameReason}`);
      addresses = await resolve(url.hostname).catch(() => []);
      if (addresses.length === 0) throw new WebError('not-found', `The site ${url.hostname} could not be found`);
    }
    // One refused address among several refuses the name: DNS may answer either one next time.
    const reason = allowed ? null : addresses.map(refusalReason).find((r) => r !== null);
    if (reason) throw new WebError('refused', `This address is not allowed: ${reason}`);
    const address = addresses[0]!;
    return { url, address, family: address.includes(':') ? 6 : 4 };
  }

  /** The body, decompressed and counted as it arrives, never more than maxBytes. */
  async function readBody(response: RawResponse, limit = maxBytes): Promise<Buffer> {
    const declared = Number(header(response.headers, 'content-length'));
    if (declared > limit) throw tooLarge(limit);
    const encoding = (header(response.headers, 'content-encoding') ?? 'identity').toLowerCase();
    const decompress =
      encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate'
        ? zlib.createUnzip()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : encoding === 'identity'
            ? null
            : undefined;
    if (decompress === undefined) throw new WebError('unsupported-type', `Unsupported content encoding: ${encoding}`);
    const stream = decompress ? response.body.pipe(decompress) : response.body;
    if (decompress) response.body.once('error', (err) => decompress.destroy(err));
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw tooLarge(limit);
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof WebError) throw err;
      throw new WebError('network', decompress ? 'The page could not be decompressed' : 'The page stopped answering');
    } finally {
      decompress?.destroy();
    }
    return Buffer.concat(chunks);
  }

  async function read(response: RawResponse, url: URL): Promise<WebPage> {
    const contentType = header(response.headers, 'content-type') ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const isPdf = mediaType === 'application/pdf' && options.readPdf;
    if (!HTML_TYPES.has(mediaType) && mediaType !== 'text/plain' && !isPdf) {
      throw new WebError('unsupported-type', `Unsupported content type: ${mediaType || 'none given'}`);
    }
    const body = await readBody(response);
    const fallbackTitle = `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`;
    if (isPdf) {
      const pdf = await options.readPdf!(new Uint8Array(body));
      return { url: url.href, title: pdf.title || fallbackTitle, text: pdf.text, contentType: mediaType };
    }
    const text = decoder(/charset=["']?([^;"'\s]+)/i.exec(contentType)?.[1]).decode(body);
    if (mediaType === 'text/plain') return { url: url.href, title: fallbackTitle, text, contentType: mediaType };
    const readable = await readableHtml(text, url.href);
    return { url: url.href, title: readable.title || fallbackTitle, text: readable.text, contentType: mediaType };
  }

  async function fetchUncached<T>(
    start: URL,
    trustedSources: readonly string[],
    signal: AbortSignal,
    readResponse: (response: RawResponse, url: URL) => Promise<T>,
  ) {
    const chain: string[] = [];
    let url = start;
    for (;;) {
      chain.push(url.href);
      const checked = await target(url, trustedSources);
      // A look-up that outlived the deadline must not lead to a connection.
      signal.throwIfAborted();
      const response = await connect(checked, signal);
      try {
        const location = header(response.headers, 'location');
        if (REDIRECTS.has(response.status) && location) {
          if (chain.length > maxRedirects) throw new WebError('too-many-redirects', 'Too many redirects');
          if (!URL.canParse(location, url)) {
            throw new WebError('bad-url', 'The page redirected to an invalid address');
          }
          url = new URL(location, url);
          continue;
        }
        if (response.status < 200 || response.status > 299) {
          throw new WebError('http-status', `The page answered ${response.status} ${response.statusText}`.trim());
        }
        return { result: await readResponse(response, url), chain };
      } finally {
        // Whatever was not read is not wanted: the socket closes now rather than when the server gives up.
        response.body.destroy();
      }
    }
  }

  /** `work` races the clock, so no stage (DNS, connect, a body that never ends) can outlast it. */
  async function withDeadline<T>(
    start: URL,
    signal: AbortSignal | undefined,
    work: (combined: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let onAbort = () => {};
    const expired = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(
          timeout.aborted
            ? new WebError('timeout', 'The page took too long to answer')
            : new WebError('cancelled', 'The page fetch was cancelled'),
        );
      if (combined.aborted) onAbort();
      else combined.addEventListener('abort', onAbort, { once: true });
    });
    const working = work(combined);
    try {
      return await Promise.race([working, expired]);
    } catch (err) {
      if (err instanceof WebError) throw err;
      throw new WebError('network', `The page could not be reached (${start.hostname})`);
    } finally {
      combined.removeEventListener('abort', onAbort);
      // Whichever lost the race must not surface later as an unhandled rejection.
      working.catch(() => {});
      expired.catch(() => {});
    }
  }

  const startOf = (address: string) => {
    if (!URL.canParse(address)) throw new WebError('bad-url', `Not a web address: ${address}`);
    return new URL(address);
  };

  const fetchPage: SafeFetch = async (address, { trustedSources = [], signal } = {}) => {
    const start = startOf(address);
    const cached = cache.get(start.href);
    if (cached) {
      for (const visited of cached.chain) checkTrusted(new URL(visited), trustedSources);
      return cached.page;
    }
    const { result: page, chain } = await withDeadline(start, signal, (combined) =>
      fetchUncached(start, trustedSources, combined, read),
    );
    cache.set(start.href, { page, chain });
    return page;
  };

  const download: SafeDownload = async (address, { maxBytes: limit, signal }) => {
    const start = startOf(address);
    const { result } = await withDeadline(start, signal, (combined) =>
      fetchUncached(start, [], combined, async (response) => new Uint8Array(await readBody(response, limit))),
    );
    return result;
  };

  return { fetchPage, download };
}
