// Confluence Cloud wire conventions shared by every route (REST API v2 under /wiki/api/v2 and v1 under
// /wiki/rest/api; facts: test/reference/providers/confluence.json, from Atlassian's two OpenAPI descriptions, plus
// developer.atlassian.com where they are silent):
//   - Auth: `Authorization: Basic base64(email:api_token)` (securitySchemes.basicAuth of both descriptions).
//   - Errors: the descriptions give 4xx answers no body. v2 answers `{errors: [{status, code, title, detail}]}`
//     and v1 `{statusCode, data: {authorized, valid, errors, successful}, message}`, as Cloud sites do; the fake
//     picks the envelope by the path's API version.
//   - Timestamps: ISO 8601 in UTC with milliseconds (`2024-01-01T09:00:00.000Z`, "YYYY-MM-DDTHH:mm:ss.sssZ" in
//     the v2 schemas); v1 audit records say when as Unix milliseconds (`creationDate`).
//   - Rate limits (developer.atlassian.com/cloud/confluence/rate-limiting/): 429 with `Retry-After` (seconds),
//     `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (ISO 8601) and `X-RateLimit-NearLimit`.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { type Answer, sendJson } from '../../kit/index.ts';

export const CONFLUENCE_FAKE_EMAIL = 'ces.bot@example.com';
export const CONFLUENCE_FAKE_API_TOKEN = 'ATATT3xFfGF0cesFakeConfluenceToken=C0FFEE02';
export const WIKI = '/wiki';
export const V2 = '/wiki/api/v2';
export const V1 = '/wiki/rest/api';

export function basicMatches(headers: IncomingHttpHeaders, email: string, token: string): boolean {
  const m = /^basic\s+(.+)$/i.exec((headers.authorization ?? '').trim());
  if (!m) return false;
  const a = Buffer.from(Buffer.from(m[1] as string, 'base64').toString('utf8'));
  const b = Buffer.from(`${email}:${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

const TITLES: Record<number, [string, string]> = {
  400: ['BAD_REQUEST', 'Bad Request'],
  401: ['UNAUTHORIZED', 'Unauthorized'],
  403: ['FORBIDDEN', 'Forbidden'],
  404: ['NOT_FOUND', 'Not Found'],
  413: ['REQUEST_ENTITY_TOO_LARGE', 'Request Entity Too Large'],
  429: ['TOO_MANY_REQUESTS', 'Too Many Requests'],
  500: ['INTERNAL_SERVER_ERROR', 'Internal Server Error'],
  503: ['SERVICE_UNAVAILABLE', 'Service Unavailable'],
};

/** v2's error envelope. */
export function v2Error(status: number, detail: string | null = null): Answer {
  const [code, title] = TITLES[status] ?? ['ERROR', 'Error'];
  return { status, body: { errors: [{ status, code, title, detail }] } };
}

/** v1's error envelope. */
export function v1Error(status: number, message: string): Answer {
  return {
    status,
    body: {
      statusCode: status,
      data: {
        authorized: status !== 401 && status !== 403,
        valid: status < 500,
        errors: [],
        successful: false,
      },
      message,
    },
  };
}

/** The envelope of the API version a path belongs to. */
export function errorFor(path: string, status: number, text?: string): Answer {
  const fallback = TITLES[status]?.[1] ?? (status >= 500 ? 'Internal Server Error' : 'Error');
  return path.startsWith(`${V1}/`) ? v1Error(status, text ?? fallback) : v2Error(status, text ?? null);
}

export function unauthenticated(path: string): Answer {
  return errorFor(path, 401, 'Current user not permitted to use Confluence');
}

export function rateLimited(wait: number, perSecond: number): Answer {
  const reset = new Date(Date.now() + wait * 1000).toISOString();
  return {
    status: 429,
    headers: {
      'retry-after': String(wait),
      'x-ratelimit-limit': String(perSecond),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': reset,
      'x-ratelimit-nearlimit': 'true',
    },
    body: v2Error(429, 'Rate limit exceeded.').body,
  };
}

/** JSON as application/json;charset=UTF-8 unless the answer says otherwise. */
export function send(res: ServerResponse, out: Answer): void {
  const json = out.body !== undefined && typeof out.body !== 'string' && !Buffer.isBuffer(out.body);
  sendJson(
    res,
    json ? { ...out, headers: { 'content-type': 'application/json;charset=UTF-8', ...out.headers } } : out,
  );
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A query integer: undefined when absent, 'invalid' when not a whole number. */
export function intParam(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return /^\d+$/.test(raw) ? Number(raw) : 'invalid';
}

/** Comma-separated and repeated values, flattened (`status=current,archived&status=draft`). */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function boolParam(query: URLSearchParams, name: string): boolean {
  return query.get(name)?.toLowerCase() === 'true';
}
