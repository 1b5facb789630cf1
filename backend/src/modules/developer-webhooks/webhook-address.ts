import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where developers' webhooks may go (SSRF). In production (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES off)
 * only `https://` URLs whose host resolves to public addresses only: never loopback, private
 * (RFC 1918, unique local), link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254),
 * CGNAT (100.64.0.0/10, Alibaba's metadata 100.100.100.200), multicast, reserved, documentation
 * or benchmarking ranges, nor IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo).
 * The check runs at each delivery, on the addresses the connection then uses (no DNS rebinding:
 * the socket connects to the address that was checked). With private addresses allowed (outside
 * production) `http://` is accepted too, for localhost only.
 */
const DENIED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  DENIED_V4.addSubnet(net, prefix, 'ipv4');
}
// IPv4-mapped addresses (::ffff:0:0/96) are read as the IPv4 address they carry (below): a rule for
// them here would match every IPv4 address, which BlockList compares in their mapped form
const DENIED_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form (::127.0.0.1)
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  DENIED_V6.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:127.0.0.1`, `::ffff:7f00:1`), or null. */
function mappedIpv4(address: string): string | null {
  const dotted = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an IP address may receive a webhook in production: public unicast only. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !DENIED_V4.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = mappedIpv4(address);
  if (mapped) return isPublicAddress(mapped);
  return !DENIED_V6.check(address, 'ipv6');
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host of a URL as `net` wants it (IPv6 literals without their brackets). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why a URL may not be an endpoint, or null when it may. `allowPrivate`: outside production. */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The URL is not valid';
  }
  if (raw.length > 2048) return 'The URL is longer than 2048 characters';
  if (url.username || url.password) return 'The URL may not carry a user name or password';
  if (url.protocol === 'http:') {
    if (!allowPrivate || !LOCAL_HOSTS.has(url.hostname))
      return 'The URL must start with https:// (http:// only for localhost outside production)';
  } else if (url.protocol !== 'https:') {
    return 'The URL must start with https://';
  }
  if (!allowPrivate) {
    const host = bareHost(url);
    if (isIP(host) && !isPublicAddress(host)) return 'The URL must not point at a private, loopback or reserved address';
    if (host === 'localhost' || host.endsWith('.localhost')) return 'The URL must not point at a private, loopback or reserved address';
  }
  return null;
}

/** A connection refused because of where it would go. */
export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super('refused: the host resolves to a private, loopback or reserved address');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves the host and refuses it unless every address is
 * public: the socket then connects to the address checked here.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean } | number | undefined,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses;
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || list.length === 0) return callback(new RefusedAddressError(refused?.address ?? ''), '');
    const wantsAll = typeof options === 'object' && options?.all;
    if (wantsAll) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

/** Resolves a host: true when it has an address and every one is public (the creation's check; deliveries check again). */
export async function resolvesToPublicOnly(hostname: string): Promise<boolean | 'unresolved'> {
  if (isIP(hostname)) return isPublicAddress(hostname);
  return new Promise((resolve) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err || !addresses.length) return resolve('unresolved');
      resolve(addresses.every((a) => isPublicAddress(a.address)));
    });
  });
}
