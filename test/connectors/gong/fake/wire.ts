// Gong wire conventions shared by every route. References (help.gong.io/apidocs, Gong API v2):
//   - "Introduction" (https://help.gong.io/apidocs/introduction-2):
//       Authentication: `Authorization: Basic base64(accessKey:accessKeySecret)`, or `Bearer <token>` for OAuth apps.
//       Limits: 3 calls per second (and 10,000 per day); over the limit: HTTP 429 with `Retry-After` in seconds.
//       Cursors: list answers carry `records: {totalRecords, currentPageSize, currentPageNumber, cursor?}`; the
//       cursor is "returned only when there are more records"; the next page repeats the call with that cursor
//       and "all other request inputs should remain the same".
//   - Every operation's error responses (400/401/403/404/429/500) share the `ErrorResponse` schema:
//       `{requestId: string, errors: string[]}`. The reference gives each status a description ("Malformed
//       request", "Access denied", "No calls found for the specified period", "API request limit exceeded", ...)
//       but not Gong's exact message texts; this fake uses those descriptions as the messages.
//   - Gong meters the limit as a leaky bucket (DataGrail's Gong integration notes,
//     https://docs.datagrail.io/docs/integrations/api-documentation/gong_io).

import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { CursorCodec } from '../../kit/paging.ts';
import { send as sendShared } from '../../kit/server.ts';
import { safeEqual } from '../../kit/token.ts';

export type Auth = { kind: 'none' } | { kind: 'basic' } | { kind: 'bearer' } | { kind: 'bad' };

export interface Credentials {
  accessKey: string;
  accessKeySecret: string;
  oauthTokens: ReadonlySet<string>;
  /** Access tokens issued by the fake's token endpoint (kit/token.ts), valid until they expire. */
  issuedToken?: (token: string) => boolean;
}

export function parseAuth(headers: IncomingHttpHeaders, creds: Credentials): Auth {
  const raw = headers.authorization;
  if (raw === undefined || raw.trim() === '') return { kind: 'none' };
  const space = raw.indexOf(' ');
  const scheme = (space === -1 ? raw : raw.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : raw.slice(space + 1).trim();
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return safeEqual(decoded, `${creds.accessKey}:${creds.accessKeySecret}`)
      ? { kind: 'basic' }
      : { kind: 'bad' };
  }
  if (scheme === 'bearer' && (creds.oauthTokens.has(value) || creds.issuedToken?.(value) === true))
    return { kind: 'bearer' };
  return { kind: 'bad' };
}

/** Gong's request ids are short lowercase base-36 strings, e.g. "4al018gzaztcr8nbukw". */
export function requestId(): string {
  return BigInt(`0x${randomBytes(12).toString('hex')}`)
    .toString(36)
    .slice(0, 19);
}

export function errorBody(...errors: string[]) {
  return { requestId: requestId(), errors };
}

export const MESSAGES = {
  malformed: 'Malformed request',
  accessDenied: 'Access denied',
  noCalls: 'No calls found for the specified period',
  callNotFound: 'Call ID was not found',
  userNotFound: 'User not found',
  rateLimited: 'API request limit exceeded',
  notFound: 'Not found',
} as const;

/** Gong answers JSON unless a route says otherwise. */
export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  sendShared(res, status, { 'content-type': 'application/json;charset=UTF-8', ...headers }, json(body));
}

/**
 * Gong's reference types some ids as int64 (an answered scorecard's callId, 19 digits), beyond what a JS number
 * holds exactly; routes give those as bigint and they are written as bare JSON integers, digit for digit.
 */
function json(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return body;
  return JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `\u0000big:${v}` : v)).replace(
    /"\\u0000big:(-?\d+)"/g,
    '$1',
  );
}

const CURSOR_HEADER = Buffer.from('{"alg":"HS256"}').toString('base64url');

/**
 * Gong cursors look like JWTs (`eyJhbGciOiJIUzI1NiJ9.<payload>.<signature>`); the kit's signed cursor, bound to
 * the route and the other request inputs, so a next-page request that changes them (or a forged cursor) is
 * refused as a malformed request.
 */
export function gongCursors(): CursorCodec {
  return new CursorCodec({
    wrap: (payload, mac) => `${CURSOR_HEADER}.${payload}.${mac}`,
    unwrap: (cursor) => {
      const [header, payload, mac, extra] = cursor.split('.');
      return header === CURSOR_HEADER && payload !== undefined && mac !== undefined && extra === undefined
        ? [payload, mac]
        : undefined;
    },
  });
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 date-time as Gong accepts it ('2018-02-18T02:30:00-07:00' or '2018-02-18T08:00:00Z'). */
export function parseDateTime(raw: unknown): number | undefined | 'invalid' {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || !ISO.test(raw)) return 'invalid';
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? 'invalid' : ms;
}
