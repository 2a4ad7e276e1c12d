// Zendesk wire conventions shared by every route: authentication, rate-limit headers, error bodies.
// References (developer.zendesk.com):
//   - "Security and authentication" (api-reference/introduction/security-and-auth): API token as Basic
//     `{email}/token:{api_token}`, OAuth access token as `Authorization: Bearer`; a bad credential is a 401
//     with `{"error":"Couldn't authenticate you"}` (the body Zendesk answers, as quoted in its own help center).
//   - "Requests" (api-reference/introduction/requests): JSON bodies, `X-Rate-Limit` / `X-Rate-Limit-Remaining`
//     on every response, text/plain bodies for API-level 400s, JSON `{error, description, details}` otherwise.
//   - "Best practices for avoiding rate limiting" (documentation/ticketing/using-the-zendesk-api/
//     best-practices-for-avoiding-rate-limiting): `x-rate-limit`, `ratelimit-limit`, `x-rate-limit-remaining`,
//     `ratelimit-remaining`, `ratelimit-reset`, `zendesk-ratelimit-tickets-index` on ticket lists; a 429 carries
//     `Retry-After` (its documented example: `Retry-After: 93` and a text/html body).
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer, RouteRequest } from '../../kit/index.ts';

export type Auth =
  | { kind: 'anonymous' }
  | { kind: 'api_token'; email: string }
  | { kind: 'oauth'; token: string }
  | { kind: 'bad' };

export interface AcceptedCredentials {
  email: string;
  apiToken: string;
  oauthTokens: ReadonlySet<string>;
}

export function parseAuth(headers: IncomingHttpHeaders, accepted: AcceptedCredentials): Auth {
  const raw = headers.authorization;
  if (raw === undefined || raw.trim() === '') return { kind: 'anonymous' };
  const space = raw.indexOf(' ');
  const scheme = (space === -1 ? raw : raw.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : raw.slice(space + 1).trim();
  if (scheme === 'bearer')
    return accepted.oauthTokens.has(value) ? { kind: 'oauth', token: value } : { kind: 'bad' };
  if (scheme !== 'basic') return { kind: 'bad' };
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon === -1 ? decoded : decoded.slice(0, colon);
  const secret = colon === -1 ? '' : decoded.slice(colon + 1);
  // Only API-token Basic auth exists here: `{email}/token` + token. Email + password is refused, as it is on
  // accounts where password access to the API is turned off (the default since 2024).
  const email = user.endsWith('/token') ? user.slice(0, -'/token'.length) : undefined;
  if (
    email !== undefined &&
    email.toLowerCase() === accepted.email.toLowerCase() &&
    secret === accepted.apiToken
  )
    return { kind: 'api_token', email };
  return { kind: 'bad' };
}

export const UNAUTHENTICATED_BODY = { error: "Couldn't authenticate you" };

/** Zendesk's body for a status, where a fault names none. */
export function errorBody(status: number): unknown {
  if (status === 401) return UNAUTHENTICATED_BODY;
  if (status === 403)
    return {
      error: 'Forbidden',
      description:
        'You do not have access to this page. Please contact the account owner of this help desk for further help.',
    };
  if (status === 404) return recordNotFound();
  if (status === 422)
    return recordInvalid({ base: [{ description: 'Invalid value', error: 'InvalidValue' }] });
  // "Best practices for avoiding rate limiting": a 429 is text/html; tests set its Retry-After.
  if (status === 429) return 'Too Many Requests';
  return { error: status >= 500 ? 'InternalServerError' : 'Error' };
}

/**
 * A write's `{"<key>": {...}}` member. A body that is not JSON, or has no such object, is an API-level 400
 * answered as text/plain ("Requests": "You may get a text/plain response in case of an error like a bad request").
 */
export function readMember(req: RouteRequest, key: string): Record<string, unknown> | Answer {
  const bad = (text: string): Answer => ({
    status: 400,
    body: text,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
  const contentType = req.recorded.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('application/json'))
    return bad('Content-Type must be application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.recorded.body);
  } catch {
    return bad('Invalid JSON in request body');
  }
  const member = isObject(parsed) ? parsed[key] : undefined;
  return isObject(member) ? member : bad(`param is missing or the value is empty: ${key}`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isAnswer(value: unknown): value is Answer {
  return isObject(value) && typeof value.status === 'number' && 'body' in value;
}

export function recordNotFound() {
  return { error: 'RecordNotFound', description: 'Not found' };
}

/** The answer to a path no endpoint serves. */
export function invalidEndpoint() {
  return { error: 'InvalidEndpoint', description: 'Not found' };
}

export interface FieldError {
  description: string;
  error: string;
}

/** 422 for a record that fails validation; `details` maps each attribute to its errors. */
export function recordInvalid(details: Record<string, FieldError[]>) {
  return { error: 'RecordInvalid', description: 'Record validation errors', details };
}

export function invalidPagination(description: string) {
  return { error: 'InvalidPaginationParameter', description };
}

const WINDOW_SECONDS = 60;
export const ACCOUNT_LIMIT = 700;

/**
 * Counts requests per credential per minute so `x-rate-limit-remaining` really decreases. Exhaustion is only
 * reported, never enforced: tests inject 429s with failNext instead.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { used: number; resetAt: number }>();

  take(auth: Auth): Record<string, string> {
    const key =
      auth.kind === 'api_token'
        ? `email:${auth.email}`
        : auth.kind === 'oauth'
          ? `oauth:${auth.token}`
          : auth.kind;
    const now = Date.now() / 1000;
    let window = this.windows.get(key);
    if (window === undefined || now >= window.resetAt) {
      window = { used: 0, resetAt: Math.floor(now / WINDOW_SECONDS) * WINDOW_SECONDS + WINDOW_SECONDS };
      this.windows.set(key, window);
    }
    window.used += 1;
    const remaining = String(Math.max(0, ACCOUNT_LIMIT - window.used));
    const reset = String(Math.max(1, Math.ceil(window.resetAt - now)));
    return {
      'x-rate-limit': String(ACCOUNT_LIMIT),
      'ratelimit-limit': String(ACCOUNT_LIMIT),
      'x-rate-limit-remaining': remaining,
      'ratelimit-remaining': remaining,
      'ratelimit-reset': reset,
    };
  }
}

/** Headers of every API response (the "Requests" page's example response shows these). */
export function apiHeaders(rate: Record<string, string>): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
    'x-zendesk-api-version': 'v2',
    'x-zendesk-origin-server': 'app-fake.pod-1.ces.local',
    'x-zendesk-request-id': randomBytes(10).toString('hex'),
    ...rate,
  };
}
