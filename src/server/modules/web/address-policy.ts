import ipaddr from 'ipaddr.js';

/**
 * Which addresses a page fetch may connect to: public unicast only. Everything that reaches this machine,
 * its network or a cloud provider's control plane is refused with a reason a person can read.
 */

type Ranges = ReadonlyArray<readonly [reason: string, cidrs: readonly string[]]>;

/** Checked in order, so the specific reasons (metadata) win over the broad ones (link-local, CGNAT). */
const V4_REFUSED: Ranges = [
  // AWS/GCP/Azure/OpenStack, Alibaba Cloud, Azure's host agent (a public address that answers only inside Azure).
  ['cloud metadata', ['169.254.169.254/32', '100.100.100.200/32', '168.63.129.16/32']],
  ['unspecified', ['0.0.0.0/8']],
  ['loopback', ['127.0.0.0/8']],
  ['private network', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['link-local', ['169.254.0.0/16']],
  ['carrier-grade NAT', ['100.64.0.0/10']],
  ['multicast', ['224.0.0.0/4']],
  ['broadcast', ['255.255.255.255/32']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['benchmarking', ['198.18.0.0/15']],
  ['reserved', ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4']],
];

const V6_REFUSED: Ranges = [
  ['cloud metadata', ['fd00:ec2::254/128']],
  ['unspecified', ['::/128']],
  ['loopback', ['::1/128']],
  ['IPv4-mapped IPv6', ['::ffff:0:0/96']],
  ['IPv4-translated IPv6', ['::ffff:0:0:0/96']],
  ['IPv4-compatible IPv6', ['::/96']],
  ['NAT64', ['64:ff9b::/96', '64:ff9b:1::/48']],
  ['6to4', ['2002::/16']],
  ['Teredo', ['2001::/32']],
  ['unique local', ['fc00::/7']],
  ['site-local', ['fec0::/10']],
  ['link-local', ['fe80::/10']],
  ['multicast', ['ff00::/8']],
  ['documentation', ['2001:db8::/32', '3fff::/20']],
  ['benchmarking', ['2001:2::/48']],
  ['discard', ['100::/64']],
];

const compile = <Ip extends ipaddr.IPv4 | ipaddr.IPv6>(ranges: Ranges) =>
  ranges.map(([reason, cidrs]) => ({ reason, cidrs: cidrs.map((c) => ipaddr.parseCIDR(c) as [Ip, number]) }));

const V4 = compile<ipaddr.IPv4>(V4_REFUSED);
const V6 = compile<ipaddr.IPv6>(V6_REFUSED);
/** Global unicast: the only IPv6 block handed out for the public internet. */
const V6_GLOBAL = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** The IPv4 address an IPv6 address carries inside it (mapped, compatible, NAT64, 6to4, Teredo), if any. */
function embeddedV4(reason: string, v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (['IPv4-mapped IPv6', 'IPv4-translated IPv6', 'IPv4-compatible IPv6', 'NAT64'].includes(reason)) {
    return v4(p[6]!, p[7]!);
  }
  if (reason === '6to4') return v4(p[1]!, p[2]!);
  // Teredo stores the client's address inverted.
  if (reason === 'Teredo') return v4(~p[6]! & 0xffff, ~p[7]! & 0xffff);
  return undefined;
}

/**
 * Why `address` (an IPv4 or IPv6 address in any spelling ipaddr.js reads) must not be connected to, or
 * null when it is a public unicast address. Anything unparseable is refused.
 */
export function refusalReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') {
    const v4 = ip as ipaddr.IPv4;
    const hit = V4.find(({ cidrs }) => cidrs.some((c) => v4.match(c)));
    if (hit) return hit.reason;
    // Whatever else ipaddr.js knows as special (AS112, AMT…) is not a web site either.
    return v4.range() === 'unicast' ? null : 'reserved';
  }
  const v6 = ip as ipaddr.IPv6;
  const hit = V6.find(({ cidrs }) => cidrs.some((c) => v6.match(c)));
  if (hit) {
    const inner = embeddedV4(hit.reason, v6);
    const innerReason = inner && refusalReason(inner.toString());
    return innerReason ? `${hit.reason} of ${inner.toString()}, ${innerReason}` : hit.reason;
  }
  if (!v6.match(V6_GLOBAL)) return 'reserved';
  return v6.range() === 'unicast' ? null : 'reserved';
}

/**
 * The IP address a URL host spells, or null for a name. `host` is what WHATWG URL made of it (it already turns
 * 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 into 127.0.0.1, and brackets IPv6); ipaddr.js reads it again so a
 * spelling URL left alone still counts as an address.
 */
export function hostAddress(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare).toString();
  if (ipaddr.IPv4.isValid(bare)) return ipaddr.IPv4.parse(bare).toString();
  return null;
}

/** Names that mean this machine or the local network whatever DNS says (RFC 6761, mDNS, home networks). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|home\.arpa|localdomain)$/;

/** Why a host name (not an address) is refused before any DNS look-up, or null. */
export function nameRefusalReason(name: string): string | null {
  const lower = name.toLowerCase().replace(/\.$/, '');
  // A single label is completed by the machine's search domains into an internal name.
  if (!lower.includes('.') || LOCAL_NAME.test(lower)) return 'local network name';
  return null;
}

/**
 * Why a host must not be connected to (its name, or any address it resolves to), or null when it is public.
 * For other servers the operator's admins point Botty at (AI connections), with the page fetch's rules.
 */
export async function hostRefusalReason(
  hostname: string,
  resolve: (name: string) => Promise<string[]>,
): Promise<string | null> {
  const literal = hostAddress(hostname);
  if (!literal) {
    const nameReason = nameRefusalReason(hostname);
    if (nameReason) return nameReason;
  }
  const addresses = literal ? [literal] : await resolve(hostname).catch(() => []);
  if (addresses.length === 0) return 'the name could not be found';
  return addresses.map(refusalReason).find((r) => r !== null) ?? null;
}
