/**
 * Egress policy: a connector's base URL can come from a user's config (GitHub Enterprise `api_url`), so without
 * this check ces would be an SSRF proxy into its own network. Only public unicast addresses are allowed; the
 * operator's `CES_UPSTREAM_OVERRIDES` are the one way to reach anything else (tests, on-prem upstreams).
 *
 * Host names are checked where the socket connects (undici `connect.lookup`), so the address that is checked
 * is the address that is used: a DNS answer that changes between a check and the connect (rebinding) can't
 * slip through.
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'ipv4-mapped'
  | 'unique-local'
  | 'invalid';

export class EgressDeniedError extends Error {
  readonly code = 'ERR_CES_EGRESS_DENIED';
  constructor(
    readonly host: string,
    readonly addressClass: AddressClass,
  ) {
    super(`upstream host ${host} resolves to a ${addressClass} address, which the egress policy refuses`);
    this.name = 'EgressDeniedError';
  }
}

export function classifyAddress(address: string): AddressClass {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(ip.split('%')[0] ?? '');
  if (family === 4) return classifyV4(v4Octets(ip));
  if (family === 6) return classifyV6(v6Groups(ip.split('%')[0] as string));
  return 'invalid';
}

function v4Octets(ip: string): number[] {
  return ip.split('.').map(Number);
}

function classifyV4(o: number[]): AddressClass {
  const [a = 0, b = 0, c = 0] = o;
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'cgnat';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF protocol assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return 'reserved'; // 6to4 relay anycast
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
  return 'public';
}

/** Eight 16-bit groups; handles `::` and a dotted IPv4 tail. Input is already known to be valid IPv6. */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Octets(last);
    tail = [(a << 8) | b, (c << 8) | d];
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const gap = text.indexOf('::');
  if (gap === -1) return [...parse(text), ...tail];
  const left = parse(text.slice(0, gap));
  const right = [...parse(text.slice(gap + 2)), ...tail];
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function classifyV6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = () => classifyV4([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  const firstFive = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFive && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstFive && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // Any address carrying an IPv4 address is refused outright: such answers don't come from real public APIs.
  if (firstFive && g5 === 0xffff) return 'ipv4-mapped';
  if (firstFive && g5 === 0) return 'reserved'; // IPv4-compatible (deprecated)
  if (g0 === 0x64 && g1 === 0xff9b) {
    // NAT64: judge by the IPv4 address it translates to.
    if (g2 === 1) return 'private'; // 64:ff9b:1::/48, local-use NAT64
    const v4 = embedded();
    return v4 === 'public' ? 'public' : v4;
  }
  if (g0 === 0x2002) {
    const v4 = classifyV4([g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff]);
    return v4 === 'public' ? 'public' : v4;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && (g1 === 0xdb8 || g1 === 0)) return 'reserved'; // documentation, Teredo
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only
  if ((g0 & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}

/** The literal IP of a URL's host, if it is one (`[::1]` included). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/** Throws EgressDeniedError when the URL's host is a literal non-public address. */
export function checkLiteralHost(url: URL): void {
  const ip = literalAddress(url);
  if (ip === undefined) return;
  const cls = classifyAddress(ip);
  if (cls !== 'public') throw new EgressDeniedError(url.hostname, cls);
}

type Resolver = (hostname: string, cb: (err: Error | null, addresses: dns.LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, cb) =>
  dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => cb(err, addresses ?? []));

/**
 * A `lookup` for net/tls.connect that refuses a host if ANY of its addresses is non-public, so a name can't
 * hide a private address behind a public one and hope the connector picks it.
 */
export function guardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err as NodeJS.ErrnoException, '', 0);
      const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
      const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
      for (const a of addresses) {
        const cls = classifyAddress(a.address);
        if (cls !== 'public') return callback(new EgressDeniedError(hostname, cls), '', 0);
      }
      if (usable.length === 0) {
        const notFound = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        return callback(notFound, '', 0);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      const first = usable[0] as dns.LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
