// Which addresses WEB_FETCH may connect to. Decided on the resolved IP address (never the host
// name), so a name that points at 127.0.0.1 or the metadata service is refused like the literal.
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
];

const lists = new Map<RefusedRange, BlockList>();
for (const [range, family, network, prefix] of RANGES) {
  if (!lists.has(range)) lists.set(range, new BlockList());
  lists.get(range)!.addSubnet(network, prefix, family);
}
const ORDER: RefusedRange[] = ['cloud-metadata', ...[...lists.keys()].filter((r) => r !== 'cloud-metadata')];

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIPv4(address: string): string | null {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
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
