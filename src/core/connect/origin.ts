/**
 * A web origin as ces takes one from a caller (a widget token's `allowed_origin`, the connect page's `?origin=`):
 * `scheme://host[:port]` and nothing else, lower-cased, with a default port left out, as a browser's
 * `event.origin` has it. The value goes verbatim into a `frame-ancestors` source list and into postMessage's
 * targetOrigin, so it is parsed here rather than by the WHATWG URL parser, which takes `*`, quotes and `;` as
 * host characters (`https://*` would let every https site frame the page; `;` would start another directive).
 * Hosts are DNS names or IPv4 addresses: a CSP source cannot name an IPv6 literal.
 */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DNS_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
/** A single trailing slash is tolerated (people paste origins from the address bar); any other path is not. */
const SHAPE = /^(https?):\/\/([a-z0-9.-]+)(?::([1-9][0-9]{0,4}))?\/?$/;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

export type OriginProblem =
  /** Not `scheme://host[:port]` with an http(s) scheme, a DNS name or IPv4 host and a port of 1 to 65535. */
  | 'not_an_origin'
  /** http to a host other than this machine: what is posted to it would cross the network in clear. */
  | 'insecure';

/** Whether a host names this machine: `localhost`, a `*.localhost` name, or 127.0.0.0/8. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || (IPV4.test(host) && host.startsWith('127.'));
}

export function parseOrigin(value: string): { origin: string } | { problem: OriginProblem } {
  const match = SHAPE.exec(value.toLowerCase());
  if (!match) return { problem: 'not_an_origin' };
  const [, scheme = '', host = '', port] = match;
  // A name whose last label is all digits is read by browsers as an IPv4 address (`1.2.3` is 1.2.0.3).
  const numeric = /(?:^|\.)[0-9]+$/.test(host);
  if (host.length > 253 || !(numeric ? IPV4.test(host) : DNS_NAME.test(host)))
    return { problem: 'not_an_origin' };
  if (port !== undefined && Number(port) > 65535) return { problem: 'not_an_origin' };
  if (scheme === 'http' && !isLoopbackHost(host)) return { problem: 'insecure' };
  const explicit = port !== undefined && port !== DEFAULT_PORT[scheme] ? `:${port}` : '';
  return { origin: `${scheme}://${host}${explicit}` };
}
