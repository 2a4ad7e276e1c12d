import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import type { AppDeps } from './app-types.ts';

/** 127.0.0.0/8 and ::1, also as the IPv4-mapped addresses a dual-stack socket reports (::ffff:127.0.0.1). */
function loopbackLiteral(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4 && v4.startsWith('127.')) return v4;
  if (address === '::1') return '[::1]';
  return undefined;
}

/**
 * The base of every URL a consent flow hands to a browser or a provider (ces's callback, the connect page's
 * done page): CES_PUBLIC_URL, and never anything the request says. A Host header is the client's to choose; a
 * flow built on one sends the end user, after consent at the real provider, wherever that client chose.
 *
 * Without CES_PUBLIC_URL only a request whose TCP peer is this machine gets a base: the loopback address and
 * port it arrived on (a proxy's X-Forwarded-* headers play no part), so every URL built from it names the end
 * user's own machine. `localhost` stands in for that address when Host says `localhost` on that same port, which
 * names the same machine and keeps a local browser on the origin it opened. Anyone else is refused.
 */
export function consentBase(deps: Pick<AppDeps, 'publicUrl'>, request: FastifyRequest): string {
  if (deps.publicUrl) return deps.publicUrl;
  const socket = request.raw.socket;
  const local = loopbackLiteral(socket.localAddress);
  const port = socket.localPort;
  if (loopbackLiteral(socket.remoteAddress) !== undefined && local !== undefined && port) {
    const scheme = 'encrypted' in socket && socket.encrypted ? 'https' : 'http';
    const host = request.headers.host?.toLowerCase() === `localhost:${port}` ? 'localhost' : local;
    return `${scheme}://${host}:${port}`;
  }
  throw new DomainError(
    'PUBLIC_URL_REQUIRED',
    'This server has no public address configured, so it runs consent flows only for browsers on its own machine. ' +
      'Its operator sets CES_PUBLIC_URL to the address browsers reach it at.',
    {
      errors: [
        {
          field: null,
          message: 'CES_PUBLIC_URL is not set and the request did not come over loopback',
          error_code: 'public_url_required',
          details: { variable: 'CES_PUBLIC_URL' },
        },
      ],
    },
  );
}
