/**
 * Egress policy: a connector's base URL can come from a user's config (GitHub Enterprise `api_url`), so without
 * this check ces would be an SSRF proxy into its own network. Only public unicast addresses are allowed, plus
 * what the operator names:
 * - `CES_UPSTREAM_OVERRIDES` replaces a connector's base URL (tests, on-prem upstreams); such a URL is trusted.
 * - `CES_EGRESS_ALLOW` (comma-separated `host`, `host:port`, `[v6]:port` or CIDR entries) lets user-given URLs
 *   reach specific private destinations: a GitHub Enterprise server on the company network, the host its
 *   archive downloads redirect to, a storage host. A host entry matches the URL's host name exactly (case
 *   aside) and its port when the entry gives one (the scheme's default port when the URL has none); the name
 *   is then allowed whatever it resolves to, because the operator vouched for the name. A CIDR entry matches
 *   the addresses actually connected to (a literal, or each address a name resolves to).
 * Credentials still never follow a destination to another origin; that is the transports' rule, not this one.
 *
 * Host names are checked where the socket connects (undici `connect`, then `lookup`), so the address that is
 * checked is the address that is used: a DNS answer that changes between a check and the connect (rebinding)
 * can't slip through.
 *
 * What a caller learns is deliberately coarse: for a name, "resolves only to refused addresses" and "does not
 * resolve" are the same refusal, so user-controlled URLs can't probe which internal names exist.
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import type { EgressAllowEntry } from '../../config/index.ts';

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

/**
 * A refused destination. For a host name (`resolved`), `addressClass` is for the operator's logs only: the
 * caller's message must not tell a name that resolves to a refused address from one that does not resolve.
 */
export class EgressDeniedError extends Error {
  readonly code = 'ERR_CES_EGRESS_DENIED';
  /** True for a name resolved at connect time, false for a literal IP. */
  readonly resolved: boolean;
  /** The resolver failed for now (EAI_AGAIN); a later attempt may get an answer. */
  readonly transient: boolean;
  constructor(
    readonly host: string,
    readonly addressClass: AddressClass | 'unresolved',
    opts: { resolved?: boolean; transient?: boolean; cause?: unknown } = {},
  ) {
    super(
      addressClass === 'unresolved'
        ? `upstream host ${host} has no address to check`
        : `upstream host ${host} resolves to a ${addressClass} address, which the egress policy refuses`,
      opts.cause === undefined ? undefined : { cause: opts.cause },
    );
    this.name = 'EgressDeniedError';
    this.resolved = opts.resolved ?? false;
    this.transient = opts.transient ?? false;
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

interface Range {
  bytes: number[];
  prefix: number;
}

/** The operator's exceptions (CES_EGRESS_ALLOW) on top of "public addresses only". */
export class EgressPolicy {
  private readonly hosts: Array<{ host: string; port: number | undefined }>;
  private readonly ranges: Range[];

  constructor(entries: readonly EgressAllowEntry[] = []) {
    this.hosts = entries.flatMap((e) =>
      e.kind === 'host' ? [{ host: canonicalHost(e.host), port: e.port }] : [],
    );
    this.ranges = entries.flatMap((e) => {
      const bytes = e.kind === 'cidr' ? addressBytes(e.address) : undefined;
      return e.kind === 'cidr' && bytes ? [{ bytes, prefix: e.prefix }] : [];
    });
  }

  /** A host entry names this destination, so it is allowed whatever its name resolves to. */
  allowsHost(protocol: string, hostname: string, port: string): boolean {
    if (this.hosts.length === 0) return false;
    const host = canonicalHost(hostname);
    const effective = port === '' ? DEFAULT_PORTS[protocol] : Number(port);
    return this.hosts.some((h) => h.host === host && (h.port === undefined || h.port === effective));
  }

  /** Why an address (literal or resolved) is refused, or null when it is public or inside a CIDR entry. */
  refusal(address: string): AddressClass | null {
    const cls = classifyAddress(address);
    if (cls === 'public') return null;
    const bytes = addressBytes(address);
    if (bytes && this.ranges.some((r) => r.bytes.length === bytes.length && inPrefix(bytes, r))) return null;
    return cls;
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** Only public addresses: the policy of a process without CES_EGRESS_ALLOW. */
export const PUBLIC_ONLY = new EgressPolicy();

/** Lower case, without brackets; IP literals in the URL parser's spelling, so `::0:1` names `[::1]`. */
function canonicalHost(host: string): string {
  const bare = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
  const family = isIP(bare);
  if (family === 0) return bare;
  try {
    const parsed = new URL(`http://${family === 6 ? `[${bare}]` : bare}/`).hostname;
    return parsed.startsWith('[') ? parsed.slice(1, -1) : parsed;
  } catch {
    return bare; // an IPv6 zone id: the URL parser has no spelling for it, so no URL can match it either
  }
}

/** 4 bytes for IPv4, 16 for IPv6 (zone id dropped), undefined for anything else. */
function addressBytes(address: string): number[] | undefined {
  const bare =
    (address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address).split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 4) return v4Octets(bare);
  if (family === 6) return v6Groups(bare).flatMap((g) => [g >> 8, g & 0xff]);
  return undefined;
}

function inPrefix(bytes: number[], range: Range): boolean {
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const i = bit / 8;
    const mask = range.prefix - bit >= 8 ? 0xff : (0xff << (8 - (range.prefix - bit))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** Throws EgressDeniedError when the URL's host is a literal address the policy refuses. */
export function checkLiteralHost(url: URL, policy: EgressPolicy = PUBLIC_ONLY): void {
  const ip = literalAddress(url);
  if (ip === undefined || policy.allowsHost(url.protocol, url.hostname, url.port)) return;
  const refused = policy.refusal(ip);
  if (refused !== null) throw new EgressDeniedError(url.hostname, refused);
}

export type Resolver = (
  hostname: string,
  cb: (err: Error | null, addresses: dns.LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, cb) =>
  dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => cb(err, addresses ?? []));

/**
 * A `lookup` for net/tls.connect that refuses a host if ANY of its addresses is refused, so a name can't
 * hide a private address behind a public one and hope the connector picks it. A name that does not resolve
 * is refused the same way (see the header: no oracle for internal names).
 */
export function guardedLookup(
  resolve: Resolver = systemResolver,
  policy: EgressPolicy = PUBLIC_ONLY,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      const deny = (cls: AddressClass | 'unresolved', cause?: Error) => {
        const transient = (cause as NodeJS.ErrnoException | undefined)?.code === 'EAI_AGAIN';
        const denied = new EgressDeniedError(hostname, cls, { resolved: true, transient, cause });
        callback(denied as NodeJS.ErrnoException, '', 0);
      };
      if (err) return deny('unresolved', err);
      for (const a of addresses) {
        const refused = policy.refusal(a.address);
        if (refused !== null) return deny(refused);
      }
      const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
      const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
      if (usable.length === 0) return deny('unresolved');
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      const first = usable[0] as dns.LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The undici `connect` for user-influenced URLs. A destination a host entry names connects without address
 * checks; any other literal IP is checked here (no lookup runs for one); any other name goes through
 * `guardedLookup`, so the addresses checked are the ones connected to.
 */
export function guardedConnector(
  /** undici's, passed in: undici is loaded at the first upstream call (agents.ts). */
  build: typeof buildConnector,
  policy: EgressPolicy,
  timeoutMs: number,
  resolve: Resolver = systemResolver,
): buildConnector.connector {
  const open = build({ timeout: timeoutMs });
  const guarded = build({ timeout: timeoutMs, lookup: guardedLookup(resolve, policy) });
  return (opts, callback) => {
    if (policy.allowsHost(opts.protocol, opts.hostname, opts.port ?? '')) return open(opts, callback);
    const refused = isIP(opts.hostname) ? policy.refusal(opts.hostname) : null;
    if (refused !== null) return callback(new EgressDeniedError(opts.hostname, refused), null);
    return guarded(opts, callback);
  };
}
