import { describe, expect, it } from 'vitest';
import { hostAddress, nameRefusalReason, refusalReason } from './address-policy';

describe('refusalReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.1.2.3', 'private network'],
    ['172.31.255.255', 'private network'],
    ['192.168.0.1', 'private network'],
    ['169.254.10.10', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['168.63.129.16', 'cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.10', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['192.0.0.170', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.175.48.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 of 127.0.0.1, loopback'],
    ['::ffff:8.8.8.8', 'IPv4-mapped IPv6'],
    ['::ffff:0:a00:1', 'IPv4-translated IPv6 of 10.0.0.1, private network'],
    ['::7f00:1', 'IPv4-compatible IPv6 of 127.0.0.1, loopback'],
    ['::808:808', 'IPv4-compatible IPv6'],
    // ipaddr.js reads the dotted compatible form as mapped; refused either way.
    ['::127.0.0.1', 'IPv4-mapped IPv6 of 127.0.0.1, loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 of 10.0.0.1, private network'],
    ['64:ff9b::8.8.8.8', 'NAT64'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64 of 169.254.169.254, cloud metadata'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1, private network'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo of 10.0.0.1, private network'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    ['4000::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusalReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:81a::200e'])(
    'lets the public unicast address %s through',
    (address) => {
      expect(refusalReason(address)).toBeNull();
    },
  );
});

describe('hostAddress', () => {
  /** The hostname WHATWG URL makes of `host`, as the page fetch sees it. */
  const urlHost = (host: string) => new URL(`http://${host}/`).hostname;

  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
  ])('reads the odd spelling %s as %s', (host, address) => {
    expect(hostAddress(urlHost(host))).toBe(address);
  });

  it('reads spellings URL leaves alone, and takes names for names', () => {
    expect(hostAddress('0x7f.1')).toBe('127.0.0.1');
    expect(hostAddress('::1')).toBe('::1');
    expect(hostAddress('nih.gov')).toBeNull();
    expect(hostAddress('1.2.3.4.nip.io')).toBeNull();
  });
});

describe('nameRefusalReason', () => {
  it.each([
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    'printer.local',
    'metadata.google.internal',
    'intranet',
    'router.home.arpa',
  ])('refuses the local name %s', (name) => {
    expect(nameRefusalReason(name)).toBe('local network name');
  });

  it('lets public names through to the DNS check', () => {
    expect(nameRefusalReason('www.nih.gov')).toBeNull();
    expect(nameRefusalReason('localhost.example.com')).toBeNull();
  });
});
