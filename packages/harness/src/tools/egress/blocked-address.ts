import { isIP } from 'node:net';

/** IPv4 ranges no server-side fetch may reach by default: [first address, prefix length, what it is]. */
const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function blockedV4(address: string): string | undefined {
  const value = v4ToInt(address);
  for (const [first, prefix, what] of BLOCKED_V4) {
    const size = 2 ** (32 - prefix);
    const start = v4ToInt(first);
    if (value >= start && value < start + size) return what;
  }
  return undefined;
}

/** The 8 groups of an IPv6 address as numbers (an embedded dotted IPv4 tail becomes two groups). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToInt(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

function blockedV6(address: string): string | undefined {
  const g = v6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (g.slice(0, 6).every((x) => x === 0)) {
    if (g[6] === 0 && g[7] === 1) return 'loopback';
    if (g[6] === 0 && g[7] === 0) return 'unspecified';
    return 'IPv4-compatible (deprecated)';
  }
  // IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::) carry an IPv4
  // address: judge that one.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return blockedV4(v4(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return blockedV4(v4(g[6]!, g[7]!));
  if (g[0] === 0x2002) return blockedV4(v4(g[1]!, g[2]!));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique local (private)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/**
 * Why a fetch must not reach `address` (loopback, private, link-local, cloud metadata…), or undefined
 * when it is a public address. Anything that is not an IP address is refused too.
 */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return blockedV4(address);
  if (family === 6) return blockedV6(address);
  return 'not an IP address';
}
