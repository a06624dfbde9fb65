import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { hostAddress, nameRefusalReason, refusalReason } from '../web/address-policy';
import { defaultResolve, urlHostname, type Resolver } from '../web/safe-fetch';

export interface AddressRules {
  /** UNSAFE outside tests (WEB_FETCH_ALLOW_HOSTS): hosts let through although their addresses are refused. */
  allowHosts: readonly string[];
  resolve?: Resolver;
}

/** A connection refused by the address rules; its message says why, for the person who added the server. */
export class AddressRefusedError extends Error {}

/**
 * Why a URL must not be connected to before any look-up (scheme, credentials, an address literal, a local name),
 * or null. Names are checked again, address by address, when the connection is made.
 */
function urlRefusal(url: URL, allowed: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https, not ${url.protocol}`;
  if (url.username || url.password) return 'a user name or password in the address';
  if (allowed) return null;
  const literal = hostAddress(url.hostname);
  return literal ? refusalReason(literal) : nameRefusalReason(url.hostname);
}

/**
 * A DNS look-up that answers only with checked addresses: every address the name resolves to must be public
 * (one refused among several refuses the name, as DNS may answer either next time), and the socket connects to
 * the first of them, so nothing resolves the name a second time.
 */
function checkedLookup(resolve: Resolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname)
      .catch(() => [] as string[])
      .then((addresses) => {
        if (addresses.length === 0)
          throw Object.assign(new Error(`${hostname} could not be found`), { code: 'ENOTFOUND' });
        const reason = addresses.map(refusalReason).find((r) => r !== null);
        if (reason) throw new AddressRefusedError(`This address is not allowed (${reason})`);
        const address = addresses[0]!;
        const family = address.includes(':') ? 6 : 4;
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      })
      .catch((err: unknown) => callback(err));
  }) as LookupFunction;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The fetch the MCP SDK's transports are given: node:http with the agent and look-up given, never following redirects. */
function nodeFetch(agents: { http: http.Agent; https: https.Agent }, lookup: LookupFunction | undefined): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(input);
    const body =
      init.body == null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : Buffer.from(await new Response(init.body).arrayBuffer());
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    return new Promise<Response>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: init.method ?? 'GET',
        headers: { 'user-agent': 'Botty (MCP client)', ...headers },
        agent: secure ? agents.https : agents.http,
        ...(lookup ? { lookup } : {}),
        signal: init.signal ?? undefined,
      });
      request.once('response', (res) => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answered.append(name, v);
        }
        const status = res.statusCode ?? 502;
        const empty = NULL_BODY_STATUSES.has(status) || init.method === 'HEAD';
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers: answered,
          }),
        );
      });
      request.once('error', reject);
      request.end(body);
    });
  };
}

export interface McpFetches {
  /** For a server that obeys the address rules: every request's URL and every new connection is checked. */
  checked: FetchLike;
  /** For an admin's server with a private address allowed: nothing is checked. */
  unchecked: FetchLike;
  /**
   * Why a server's URL is refused by the address rules (its scheme, its name, or an address it resolves to), or
   * null; a name that does not resolve is not refused here: connecting says it cannot be found.
   */
  refusal(url: string): Promise<string | null>;
  /** Closes the pooled sockets. */
  close(): void;
}

/**
 * The two fetches MCP connections use. Redirects are returned, not followed: the SDK follows them itself (within
 * the server's origin) by calling the fetch again, so each hop is checked like the first. Checked and unchecked
 * connections keep separate socket pools, so a socket an admin's server opened to a private address is never
 * reused for a person's server of the same name.
 */
export function createMcpFetches(rules: AddressRules): McpFetches {
  const allowHosts = new Set(rules.allowHosts.map(urlHostname));
  const agents = () => ({
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  });
  const checkedAgents = agents();
  const uncheckedAgents = agents();
  const resolve = rules.resolve ?? defaultResolve;
  const lookup = checkedLookup(resolve);
  const checkedFetch = nodeFetch(checkedAgents, lookup);
  const allowedFetch = nodeFetch(checkedAgents, undefined);
  return {
    checked: async (input, init) => {
      const url = new URL(input);
      const allowed = allowHosts.has(url.hostname);
      const reason = urlRefusal(url, allowed);
      if (reason) throw new AddressRefusedError(`This address is not allowed (${reason})`);
      return allowed ? allowedFetch(url, init) : checkedFetch(url, init);
    },
    unchecked: nodeFetch(uncheckedAgents, undefined),
    async refusal(address) {
      const url = new URL(address);
      const allowed = allowHosts.has(url.hostname);
      const reason = urlRefusal(url, allowed);
      if (reason || allowed || hostAddress(url.hostname)) return reason;
      const addresses = await resolve(url.hostname).catch(() => [] as string[]);
      return addresses.map(refusalReason).find((r) => r !== null) ?? null;
    },
    close() {
      for (const agent of [...Object.values(checkedAgents), ...Object.values(uncheckedAgents)]) agent.destroy();
    },
  };
}
