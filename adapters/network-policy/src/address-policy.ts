// Which addresses an outbound connection may reach (WEB_FETCH, forwarding, client metadata documents).
// Decided on the resolved IP address (never the host name), so a name that points at 127.0.0.1 or the
// metadata service is refused like the literal.
import { BlockList, isIP } from 'node:net';

export type RefusedRange = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'cloud-metadata' | 'shared' | 'reserved' | 'multicast' | 'documentation';

const RANGES: Array<[RefusedRange, 'ipv4' | 'ipv6', string, number]> = [
  // Cloud metadata first, so it is named as such rather than as link-local.
  ['cloud-metadata', 'ipv4', '169.254.169.254', 32],
  ['cloud-metadata', 'ipv4', '100.100.100.200', 32], // Alibaba Cloud
  ['cloud-metadata', 'ipv6', 'fd00:ec2::254', 128], // AWS IMDS over IPv6
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['shared', 'ipv4', '100.64.0.0', 10],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['documentation', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['documentation', 'ipv4', '198.51.100.0', 24],
  ['documentation', 'ipv4', '203.0.113.0', 24],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['documentation', 'ipv6', '2001:db8::', 32],
  // Local-use NAT64 (RFC 8215): translated to IPv4 addresses of the operator's choosing.
  ['reserved', 'ipv6', '64:ff9b:1::', 48],
];

const lists = new Map<RefusedRange, BlockList>();
for (const [range, family, network, prefix] of RANGES) {
  if (!lists.has(range)) lists.set(range, new BlockList());
  lists.get(range)!.addSubnet(network, prefix, family);
}
const ORDER: RefusedRange[] = ['cloud-metadata', ...[...lists.keys()].filter((r) => r !== 'cloud-metadata')];

/** The 16 bytes of an IPv6 address (isIP said it is one), a dotted IPv4 tail included. */
function ipv6Bytes(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const groups = (part: string | undefined): number[] =>
    !part
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = groups(head);
  const right = groups(tail);
  const words = tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

const dotted = (b: number[]) => b.join('.');
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((v, i) => bytes[i] === v);

/**
 * The IPv4 address an IPv6 address carries to its IPv4 host, where a router or the kernel may
 * deliver it there: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d, RFC 2765's
 * SIIT), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::), Teredo
 * (2001:0::, the client's address inverted in the last 32 bits) and ISATAP (an interface id of
 * 0:5efe or 200:5efe before the address, RFC 5214, under any prefix). Each is judged by the IPv4
 * address, so 2002:7f00:1:: is loopback.
 */
function embeddedIPv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zeros = (n: number) => new Array<number>(n).fill(0);
  if (startsWith(b, [...zeros(10), 255, 255])) return dotted(b.slice(12));
  if (startsWith(b, [...zeros(8), 255, 255, 0, 0])) return dotted(b.slice(12));
  if ((b[8] === 0x00 || b[8] === 0x02) && b[9] === 0x00 && b[10] === 0x5e && b[11] === 0xfe) return dotted(b.slice(12));
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) return dotted(b.slice(12));
  // ::a.b.c.d, but not :: and ::1 (their own ranges).
  if (startsWith(b, zeros(12)) && (b[12]! | b[13]!) !== 0) return dotted(b.slice(12));
  if (startsWith(b, [0x20, 0x02])) return dotted(b.slice(2, 6));
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00])) return dotted(b.slice(12).map((x) => x ^ 255));
  return null;
}

/** The refused range an address falls in, or null when it may be fetched. */
export function refusedRange(address: string): RefusedRange | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4) return refusedRange(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const range of ORDER) if (lists.get(range)!.check(address, type)) return range;
  return null;
}

export class AddressPolicy {
  private readonly allowHosts: Set<string>;
  private readonly allowed = new BlockList();

  constructor(options: { allowHosts: string[]; allowCidrs: string[] }) {
    this.allowHosts = new Set(options.allowHosts.map((h) => h.toLowerCase()));
    for (const cidr of options.allowCidrs) {
      const [network, prefix] = cidr.split('/') as [string, string];
      const family = isIP(network);
      if (family === 0) throw new Error(`allowCidrs: ${cidr} is not an address range`);
      this.allowed.addSubnet(network, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Null when host at address may be fetched, else the range that refuses it. */
  check(host: string, address: string): RefusedRange | null {
    if (this.allowHosts.has(host.toLowerCase())) return null;
    const family = isIP(address);
    if (family !== 0 && this.allowed.check(address, family === 4 ? 'ipv4' : 'ipv6')) return null;
    return refusedRange(address);
  }
}
