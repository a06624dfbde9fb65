import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWeb, type FakeWeb } from '../../../../tests/support/fake-web';
import {
  createSafeDownload,
  createSafeFetch,
  httpConnector,
  type ConnectTarget,
  type Connector,
  type Resolver,
  type SafeFetchOptions,
} from './safe-fetch';
import { WebError } from './web-error';

let site: FakeWeb;
/** The same port on 127.0.0.2: proves which address a connection really went to. */
let twin: FakeWeb;

beforeAll(async () => {
  site = await startFakeWeb();
  twin = await startFakeWeb({ host: '127.0.0.2', port: site.port });
});
afterAll(async () => {
  await site.close();
  await twin.close();
});

/** A DNS stand-in: tests never ask the real one. Unknown names do not exist. */
const resolverOf =
  (names: Record<string, string[]>): Resolver =>
  async (name) => {
    const addresses = names[name];
    if (!addresses) throw new Error(`ENOTFOUND ${name}`);
    return addresses;
  };

/**
 * Real sockets for loopback only; every other address is recorded and refused, so a policy bug can never send
 * traffic off this machine.
 */
function guardedConnector() {
  const offMachine: ConnectTarget[] = [];
  const real = httpConnector(2_000);
  const connect: Connector = (target, signal) => {
    if (target.address === '127.0.0.1' || target.address === '127.0.0.2') return real(target, signal);
    offMachine.push(target);
    return Promise.reject(new Error(`test connector refused ${target.address}`));
  };
  return { connect, offMachine };
}

async function failure(promise: Promise<unknown>): Promise<WebError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(WebError);
    return err as WebError;
  }
  throw new Error('the fetch succeeded');
}

describe('SSRF: hostile targets', () => {
  const { connect, offMachine } = guardedConnector();
  const names = {
    'public.example': ['127.0.0.1'],
    'rebind.example': ['10.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'v6.example': ['fd12:3456::1'],
    'mixed.example': ['93.184.215.14', '127.0.0.1'],
  };
  // public.example stands for an ordinary public site (served by the fake site) so redirects can be tested.
  const fetchPage = () =>
    createSafeFetch({ connect, resolve: resolverOf(names), allowHosts: ['public.example'], allowPorts: [site.port] });
  const p = () => site.port;
  const via = (to: string) => `http://public.example:${p()}/redirect?to=${encodeURIComponent(to)}`;

  const LOOPBACK = /^This address is not allowed: loopback$/;
  const LOCAL_NAME = /^This address is not allowed: local network name$/;
  const CREDENTIALS = /^Addresses with a user name or password are not allowed$/;
  const SCHEME = /^Only http and https addresses can be opened, not /;
  const refused = (reason: string) => new RegExp(`^This address is not allowed: ${reason}`);

  // [target, expected message, connections the fake site may see (1 = the allowed page that redirects)]
  const TABLE: Array<[() => string, RegExp, number?]> = [
    [() => `http://127.0.0.1:${p()}/page`, LOOPBACK],
    [() => `http://127.127.127.127:${p()}/page`, LOOPBACK],
    [() => `http://2130706433:${p()}/page`, LOOPBACK],
    [() => `http://0177.0.0.1:${p()}/page`, LOOPBACK],
    [() => `http://0x7f.1:${p()}/page`, LOOPBACK],
    [() => `http://0x7f000001:${p()}/page`, LOOPBACK],
    [() => `http://127.1:${p()}/page`, LOOPBACK],
    [() => `http://127.0.1:${p()}/page`, LOOPBACK],
    [() => `http://017700000001:${p()}/page`, LOOPBACK],
    [() => `http://[::1]:${p()}/page`, LOOPBACK],
    [() => `http://[0:0:0:0:0:0:0:1]:${p()}/page`, LOOPBACK],
    [() => `http://[::ffff:127.0.0.1]:${p()}/page`, refused('IPv4-mapped IPv6 of 127.0.0.1, loopback')],
    [() => `http://[::127.0.0.1]:${p()}/page`, refused('IPv4-compatible IPv6 of 127.0.0.1, loopback')],
    [() => `http://0.0.0.0:${p()}/page`, refused('unspecified')],
    [() => `http://0:${p()}/page`, refused('unspecified')],
    [() => `http://localhost:${p()}/page`, LOCAL_NAME],
    [() => `http://LOCALHOST.:${p()}/page`, LOCAL_NAME],
    [() => `http://www.localhost:${p()}/page`, LOCAL_NAME],
    [() => `http://nih.gov@127.0.0.1:${p()}/page`, CREDENTIALS],
    [() => `http://user:secret@public.example:${p()}/page`, CREDENTIALS],
    [() => `http://public.example:${p()}@127.0.0.1:${p()}/page`, CREDENTIALS],
    [() => `http://rebind.example/`, refused('private network')],
    [() => `http://metadata.example/latest/meta-data/`, refused('cloud metadata')],
    [() => `http://v6.example/`, refused('unique local')],
    [() => `http://mixed.example/`, LOOPBACK],
    [() => `http://10.0.0.1/`, refused('private network')],
    [() => `http://172.16.5.4/`, refused('private network')],
    [() => `http://192.168.1.1/admin`, refused('private network')],
    [() => `http://169.254.169.254/latest/meta-data/iam/`, refused('cloud metadata')],
    [() => `http://0xa9fea9fe/latest/meta-data/`, refused('cloud metadata')],
    [() => `http://[fd00:ec2::254]/latest/meta-data/`, refused('cloud metadata')],
    [() => `http://100.100.100.200/latest/meta-data/`, refused('cloud metadata')],
    [() => `http://[::ffff:169.254.169.254]/`, refused('IPv4-mapped IPv6 of 169.254.169.254, cloud metadata')],
    [() => `http://100.64.0.1/`, refused('carrier-grade NAT')],
    [() => `http://169.254.1.1/`, refused('link-local')],
    [() => `http://224.0.0.1/`, refused('multicast')],
    [() => `http://255.255.255.255/`, refused('broadcast')],
    [() => `http://192.0.2.1/`, refused('documentation')],
    [() => `http://198.18.0.1/`, refused('benchmarking')],
    [() => `http://240.0.0.1/`, refused('reserved')],
    [() => `http://[fe80::1]/`, refused('link-local')],
    [() => `http://[fc00::1]/`, refused('unique local')],
    [() => `http://[fec0::1]/`, refused('site-local')],
    [() => `http://[ff02::1]/`, refused('multicast')],
    [() => `http://[::]/`, refused('unspecified')],
    [() => `http://[64:ff9b::10.0.0.1]/`, refused('NAT64 of 10.0.0.1, private network')],
    [() => `http://[64:ff9b:1::a9fe:a9fe]/`, refused('NAT64 of 169.254.169.254, cloud metadata')],
    [() => `http://[2002:a00:1::1]/`, refused('6to4 of 10.0.0.1, private network')],
    [() => `http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/`, refused('Teredo of 10.0.0.1, private network')],
    [() => `http://intranet/`, LOCAL_NAME],
    [() => `http://metadata.google.internal/computeMetadata/v1/`, LOCAL_NAME],
    [() => `http://93.184.215.14:22/`, /^This port is not allowed: 22$/],
    [() => 'file:///etc/passwd', SCHEME],
    [() => `ftp://public.example/`, SCHEME],
    [() => 'data:text/html,<p>hi</p>', SCHEME],
    [() => `gopher://127.0.0.1:${p()}/_GET%20/page`, SCHEME],
    [() => 'javascript:alert(1)', SCHEME],
    [() => via(`http://127.0.0.1:${p()}/page`), LOOPBACK, 1],
    [() => via(`//127.0.0.1:${p()}/page`), LOOPBACK, 1],
    [() => via(`http://[::1]:${p()}/page`), LOOPBACK, 1],
    [() => via('http://169.254.169.254/latest/meta-data/'), refused('cloud metadata'), 1],
    [() => via('http://rebind.example/'), refused('private network'), 1],
    [() => via('file:///etc/passwd'), SCHEME, 1],
    [() => via(`http://nih.gov@127.0.0.1:${p()}/page`), CREDENTIALS, 1],
  ];

  it('has at least 40 hostile targets', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE.map(([target, message, allowed], i) => [i, target, message, allowed ?? 0] as const))(
    '#%i is refused with a clear error and nothing connects',
    async (_i, target, message, allowed) => {
      const before = { connections: site.connections, requests: site.requests.length, off: offMachine.length };
      const error = await failure(fetchPage()(target()));
      expect(error.message).toMatch(message);
      expect(offMachine.slice(before.off)).toEqual([]);
      expect(site.connections - before.connections).toBe(allowed);
      expect(twin.connections).toBe(0);
      // The only request that may arrive is the allowed page that redirects.
      expect(site.requests.slice(before.requests).every((path) => path.startsWith('/redirect'))).toBe(true);
    },
  );

  it('refuses loopback without the test escape hatch, even on an allowed port', async () => {
    const before = site.connections;
    const error = await failure(createSafeFetch({ connect, allowPorts: [site.port] })(`${site.url}/page`));
    expect(error.message).toBe('This address is not allowed: loopback');
    expect(site.connections).toBe(before);
  });
});

describe('safe fetch on loopback (WEB_FETCH_ALLOW_HOSTS=127.0.0.1)', () => {
  const make = (options: SafeFetchOptions = {}) =>
    createSafeFetch({ allowHosts: ['127.0.0.1'], resolve: resolverOf({}), ...options });

  it('reads an HTML page as readable text with its title', async () => {
    const page = await make()(`${site.url}/page`);
    expect(page).toMatchObject({ url: `${site.url}/page`, title: 'Vitamin D', contentType: 'text/html' });
    expect(page.text).toContain('Vitamin D is explained here in plain words.');
    expect(page.text).toContain('## Details');
    expect(page.text).not.toContain('Home');
  });

  it('reads plain text in its charset, and gzip and brotli pages', async () => {
    const fetchPage = make();
    expect(await fetchPage(`${site.url}/text`)).toMatchObject({
      title: `127.0.0.1/text`,
      text: 'Plain text, read as it is.',
    });
    expect((await fetchPage(`${site.url}/latin1`)).text).toBe('café');
    expect((await fetchPage(`${site.url}/gzip-page`)).title).toBe('Compressed');
    expect((await fetchPage(`${site.url}/br-page`)).title).toBe('Brotli');
  });

  it('follows up to 5 redirects and reports the final address', async () => {
    const page = await make()(`${site.url}/hops/4`);
    expect(page.url).toBe(`${site.url}/page`);
    const error = await failure(make()(`${site.url}/hops/5`));
    expect(error.message).toBe('Too many redirects');
  });

  it('stops a redirect loop after 5 redirects', async () => {
    const before = site.requests.length;
    const error = await failure(make()(`${site.url}/loop`));
    expect(error).toMatchObject({ code: 'too-many-redirects', message: 'Too many redirects' });
    expect(site.requests.length - before).toBe(6);
  });

  it('connects to the address it checked, without a second look-up', async () => {
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups += 1;
      return ['127.0.0.2'];
    };
    // The system resolver would answer 127.0.0.1 or ::1 for localhost; the page must come from 127.0.0.2.
    const fetchPage = createSafeFetch({ resolve, allowHosts: ['localhost'] });
    const before = { site: site.connections, twin: twin.connections };
    await fetchPage(`http://localhost:${site.port}/page`);
    expect(lookups).toBe(1);
    expect(twin.connections - before.twin).toBe(1);
    expect(site.connections - before.site).toBe(0);
    expect(twin.requests.at(-1)).toBe('/page');
  });

  it.each([
    ['/image', 'Unsupported content type: image/png'],
    ['/no-type', 'Unsupported content type: none given'],
    ['/pdf', 'Unsupported content type: application/pdf'],
    ['/missing', 'The page answered 404 Not Found'],
  ])('refuses %s: %s', async (path, message) => {
    expect((await failure(make()(`${site.url}${path}`))).message).toBe(message);
  });

  it('hands PDF bytes to the PDF reader when one is plugged in', async () => {
    const seen: string[] = [];
    const fetchPage = make({
      readPdf: async (bytes) => {
        seen.push(Buffer.from(bytes).toString());
        return { title: 'A paper', text: 'Its text' };
      },
    });
    expect(await fetchPage(`${site.url}/pdf`)).toMatchObject({ title: 'A paper', text: 'Its text' });
    expect(seen).toEqual(['%PDF-1.4 fake bytes']);
  });

  it.each(['/huge', '/huge-declared', '/gzip-bomb', '/deflate-bomb', '/br-bomb'])(
    'refuses %s as too large, counting decompressed bytes, quickly',
    async (path) => {
      const started = Date.now();
      const error = await failure(make()(`${site.url}${path}`));
      expect(error).toMatchObject({ code: 'too-large', message: 'The page is too large (over 5 MB)' });
      expect(Date.now() - started).toBeLessThan(5_000);
    },
  );

  it.each(['/never-ends', '/hang'])('gives up on %s when the whole fetch takes too long', async (path) => {
    const started = Date.now();
    const error = await failure(make({ timeoutMs: 500 })(`${site.url}${path}`));
    expect(error).toMatchObject({ code: 'timeout', message: 'The page took too long to answer' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = make()(`${site.url}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).message).toBe('The page fetch was cancelled');
  });

  it('says when a site does not exist', async () => {
    const error = await failure(make()('https://no-such-site.example/'));
    expect(error.message).toBe('The site no-such-site.example could not be found');
  });

  it('caches a page briefly, and re-checks a cached redirect against the next caller’s trusted sources', async () => {
    const fetchPage = createSafeFetch({
      allowHosts: ['nih.gov', 'evil.example'],
      resolve: resolverOf({ 'nih.gov': ['127.0.0.1'], 'evil.example': ['127.0.0.1'] }),
    });
    const start = `http://nih.gov:${site.port}/redirect?to=${encodeURIComponent(`http://evil.example:${site.port}/page`)}`;
    const before = site.requests.length;
    expect((await fetchPage(start)).title).toBe('Vitamin D');
    expect((await fetchPage(start)).title).toBe('Vitamin D');
    expect(site.requests.length - before).toBe(2);
    const error = await failure(fetchPage(start, { trustedSources: ['nih.gov'] }));
    expect(error.message).toBe('Outside the trusted sources: evil.example');
    expect(site.requests.length - before).toBe(2);
  });
});

describe('trusted sources', () => {
  const names = ['nih.gov', 'www.nih.gov', 'nih.gov.evil.com', 'evilnih.gov', 'who.int.example'];
  const fetchPage = createSafeFetch({
    allowHosts: names,
    resolve: resolverOf(Object.fromEntries(names.map((n) => [n, ['127.0.0.1']]))),
  });
  const at = (host: string, path = '/page') => `http://${host}:${site.port}${path}`;
  const trustedSources = ['nih.gov', 'who.int'];

  it('reads pages on a trusted domain and its subdomains', async () => {
    expect((await fetchPage(at('nih.gov'), { trustedSources })).title).toBe('Vitamin D');
    expect((await fetchPage(at('www.nih.gov', '/other'), { trustedSources })).title).toBe('Iron');
  });

  it.each(['nih.gov.evil.com', 'evilnih.gov', 'who.int.example'])(
    'refuses the lookalike %s before connecting',
    async (host) => {
      const before = site.connections;
      const error = await failure(fetchPage(at(host, '/other'), { trustedSources }));
      expect(error).toMatchObject({ code: 'untrusted', message: `Outside the trusted sources: ${host}` });
      expect(site.connections).toBe(before);
    },
  );

  it('refuses a redirect that leaves the trusted sources, before following it', async () => {
    const before = site.requests.length;
    const error = await failure(
      fetchPage(at('www.nih.gov', `/redirect?to=${encodeURIComponent(at('evilnih.gov', '/text'))}`), {
        trustedSources,
      }),
    );
    expect(error.message).toBe('Outside the trusted sources: evilnih.gov');
    expect(site.requests.slice(before).map((r) => r.split('?')[0])).toEqual(['/redirect']);
  });
});

describe('safe download (an image given by URL)', () => {
  const download = createSafeDownload({ allowHosts: ['127.0.0.1'], resolve: resolverOf({}) });

  it('returns the bytes whatever the content type, after redirects, and nothing over its limit', async () => {
    const image = await download(`${site.url}/redirect?to=/image`, { maxBytes: 1024 });
    expect(image).toEqual(new Uint8Array(64));
    expect(new TextDecoder().decode(await download(`${site.url}/pdf`, { maxBytes: 1024 }))).toBe('%PDF-1.4 fake bytes');
    expect(await failure(download(`${site.url}/image`, { maxBytes: 63 }))).toMatchObject({ code: 'too-large' });
    expect(await failure(download(`${site.url}/huge`, { maxBytes: 1024 * 1024 }))).toMatchObject({
      code: 'too-large',
    });
  });

  it('checks every address as the page fetch does, redirects included, before connecting', async () => {
    const before = site.connections;
    for (const url of ['http://localhost/a.png', 'http://10.0.0.1/a.png', 'http://169.254.169.254/latest']) {
      expect(await failure(download(url, { maxBytes: 1024 })), url).toMatchObject({ code: 'refused' });
    }
    expect(site.connections).toBe(before);
    const redirected = await failure(
      download(`${site.url}/redirect?to=${encodeURIComponent('http://192.168.1.1/a.png')}`, { maxBytes: 1024 }),
    );
    expect(redirected.message).toBe('This address is not allowed: private network');
  });
});
