// Linear wire conventions shared by the fake's routes. Sources: the SDL (reference/providers/linear.graphql), the
// developer pages "Rate limiting" (linear.app/developers/rate-limiting) and "OAuth 2.0 authentication"
// (linear.app/developers/oauth-2-0-authentication), and the official SDK's error parser (linear/linear,
// packages/sdk/src/error.ts), which reads `extensions.type` / `userPresentableMessage` / `userError` of each
// error and the X-RateLimit-* headers of a RATELIMITED answer.
//   - Credentials: a personal API key (`lin_api_…`) sent as the whole `Authorization` value, without a scheme,
//     or an OAuth access token as `Authorization: Bearer <token>`.
//   - Errors are GraphQL error objects `{message, path?, locations?, extensions: {type, code, statusCode,
//     userError, userPresentableMessage}}` under `errors`; `type` is the lower-case phrase the SDK maps
//     ("authentication error", "invalid input", "ratelimited", "forbidden", "graphql error", "internal error").
//   - Rate limits are leaky buckets (requests per hour and complexity points per hour); every answer carries the
//     X-RateLimit-Requests-* and X-RateLimit-Complexity-* headers, resets as UTC epoch milliseconds.

import type { IncomingHttpHeaders } from 'node:http';
import { safeEqual } from '../../kit/token.ts';

export type LinearErrorKind =
  | 'authentication'
  | 'forbidden'
  | 'input'
  | 'ratelimited'
  | 'graphql'
  | 'internal'
  | 'not_found';

interface KindInfo {
  type: string;
  code: string;
  statusCode: number;
  userError: boolean;
}

const KINDS: Record<LinearErrorKind, KindInfo> = {
  authentication: {
    type: 'authentication error',
    code: 'AUTHENTICATION_ERROR',
    statusCode: 401,
    userError: true,
  },
  forbidden: { type: 'forbidden', code: 'FORBIDDEN', statusCode: 403, userError: true },
  input: { type: 'invalid input', code: 'INPUT_ERROR', statusCode: 400, userError: true },
  ratelimited: { type: 'ratelimited', code: 'RATELIMITED', statusCode: 429, userError: true },
  graphql: { type: 'graphql error', code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400, userError: true },
  internal: { type: 'internal error', code: 'INTERNAL_SERVER_ERROR', statusCode: 500, userError: false },
  not_found: { type: 'invalid input', code: 'NOT_FOUND', statusCode: 404, userError: true },
};

/** An error a resolver (or the dispatcher) answers with; rendered by `errorObject`. */
export class LinearApiError extends Error {
  constructor(
    readonly kind: LinearErrorKind,
    message: string,
    readonly userPresentableMessage?: string,
    /** overrides the kind's code, e.g. GRAPHQL_PARSE_FAILED or BAD_USER_INPUT */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A query the fake cannot answer faithfully (a filter or argument it does not implement). */
export class FakeNotImplemented extends Error {}

export function extensionsFor(err: LinearApiError): Record<string, unknown> {
  const info = KINDS[err.kind];
  return {
    type: info.type,
    code: err.code ?? info.code,
    statusCode: info.statusCode,
    userError: info.userError,
    ...(err.userPresentableMessage === undefined
      ? {}
      : { userPresentableMessage: err.userPresentableMessage }),
  };
}

export function statusOf(kind: LinearErrorKind): number {
  return KINDS[kind].statusCode;
}

/** `{errors: [one error]}` for answers that carry no data (auth, rate limit, malformed request). */
export function errorBody(err: LinearApiError): { errors: Array<Record<string, unknown>> } {
  return { errors: [{ message: err.message, extensions: extensionsFor(err) }] };
}

export const AUTH_ERROR = new LinearApiError(
  'authentication',
  'Authentication required, not authenticated',
  'You need to authenticate to access this operation.',
);

export const RATELIMIT_ERROR = new LinearApiError(
  'ratelimited',
  'Rate limit exceeded',
  'You have exceeded the rate limit for this API. Please wait before making more requests.',
);

/** The body failNext answers when the fault names only a status. */
export function defaultFaultBody(status: number): unknown {
  if (status === 401) return errorBody(AUTH_ERROR);
  if (status === 403)
    return errorBody(
      new LinearApiError('forbidden', 'Forbidden', 'You do not have access to this resource.'),
    );
  if (status === 429) return errorBody(RATELIMIT_ERROR);
  if (status === 404) return errorBody(new LinearApiError('not_found', 'Not found'));
  if (status >= 500)
    return errorBody(
      new LinearApiError('internal', 'Internal server error', 'An unexpected error occurred.'),
    );
  return errorBody(new LinearApiError('input', 'Bad request', 'The request was invalid.'));
}

export type Auth =
  | { kind: 'none' }
  | { kind: 'bad' }
  | { kind: 'api_key' }
  | { kind: 'oauth'; token: string; actor: 'user' | 'app' };

export interface Credentials {
  apiKey: string;
  /** Bearer tokens accepted besides the token endpoint's (never expire). */
  oauthTokens: ReadonlySet<string>;
  /** An unexpired access token the token endpoint issued, and whom it acts as. */
  issued: (token: string) => 'user' | 'app' | undefined;
}

export function parseAuth(headers: IncomingHttpHeaders, creds: Credentials): Auth {
  const raw = headers.authorization?.trim();
  if (raw === undefined || raw === '') return { kind: 'none' };
  const bearer = /^Bearer\s+(\S+)$/i.exec(raw);
  if (bearer !== null) {
    const token = bearer[1] as string;
    if (creds.oauthTokens.has(token)) return { kind: 'oauth', token, actor: 'user' };
    const actor = creds.issued(token);
    return actor === undefined ? { kind: 'bad' } : { kind: 'oauth', token, actor };
  }
  // An API key is the whole header value; a key behind any scheme is not accepted.
  return safeEqual(raw, creds.apiKey) ? { kind: 'api_key' } : { kind: 'bad' };
}

export { safeEqual };

/**
 * A leaky bucket: `capacity` tokens, refilled continuously over `periodMs`. `enforce` false only meters (for
 * the headers) and never refuses.
 */
export class LeakyBucket {
  private level: number;
  private at = Date.now();

  constructor(
    readonly capacity: number,
    private readonly periodMs: number,
    private readonly enforce: boolean,
  ) {
    this.level = capacity;
  }

  private refill(now: number): void {
    this.level = Math.min(this.capacity, this.level + ((now - this.at) / this.periodMs) * this.capacity);
    this.at = now;
  }

  /** Takes `cost` tokens; false when the bucket is (and stays) refused. */
  take(cost = 1, now = Date.now()): boolean {
    this.refill(now);
    if (this.enforce && this.level < cost) return false;
    this.level = Math.max(0, this.level - cost);
    return true;
  }

  remaining(now = Date.now()): number {
    this.refill(now);
    return Math.floor(this.level);
  }

  /** Epoch ms at which the bucket is full again. */
  resetAt(now = Date.now()): number {
    this.refill(now);
    return Math.ceil(now + ((this.capacity - this.level) / this.capacity) * this.periodMs);
  }
}

export interface Limits {
  requests: LeakyBucket;
  complexity: LeakyBucket;
}

const HOUR_MS = 3_600_000;
/** Linear's published hourly budgets for an API key: 5,000 requests and 3,000,000 complexity points. */
export const REQUESTS_PER_HOUR = 5_000;
export const COMPLEXITY_PER_HOUR = 3_000_000;
/** The largest complexity one query may have. */
export const MAX_QUERY_COMPLEXITY = 10_000;

/** Off unless `perSecond` is given: then the request bucket holds `perSecond` and refills every second. */
export function createLimits(perSecond: number | undefined): Limits {
  return {
    requests:
      perSecond === undefined
        ? new LeakyBucket(REQUESTS_PER_HOUR, HOUR_MS, false)
        : new LeakyBucket(perSecond, 1000, true),
    complexity: new LeakyBucket(COMPLEXITY_PER_HOUR, HOUR_MS, false),
  };
}

export function rateLimitHeaders(limits: Limits, complexity?: number): Record<string, string> {
  const now = Date.now();
  return {
    'x-ratelimit-requests-limit': String(limits.requests.capacity),
    'x-ratelimit-requests-remaining': String(limits.requests.remaining(now)),
    'x-ratelimit-requests-reset': String(limits.requests.resetAt(now)),
    'x-ratelimit-complexity-limit': String(limits.complexity.capacity),
    'x-ratelimit-complexity-remaining': String(limits.complexity.remaining(now)),
    'x-ratelimit-complexity-reset': String(limits.complexity.resetAt(now)),
    ...(complexity === undefined ? {} : { 'x-complexity': String(complexity) }),
  };
}
