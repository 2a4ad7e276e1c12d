// HubSpot wire conventions shared by every route. Sources (developers.hubspot.com):
//   - "API error responses" (docs/faq/api-error-responses): errors are JSON `{status: "error", message,
//     correlationId, category, errors?, context?}`; every field is optional for parsers. Categories used here:
//     VALIDATION_ERROR, OBJECT_NOT_FOUND, INVALID_AUTHENTICATION, EXPIRED_AUTHENTICATION, RATE_LIMITS,
//     MISSING_SCOPES, CONFLICT. HubSpot echoes the id as the `x-hubspot-correlation-id` response header.
//   - Changelog "Improvements to authentication errors for V3 endpoints": a request without credentials gets
//     401 + INVALID_AUTHENTICATION ("Authentication credentials not found. ..."); an expired OAuth token gets
//     401 + EXPIRED_AUTHENTICATION ("The OAuth token used to make this call expired N minute(s) ago.").
//   - "API usage guidelines" (docs/api/usage-details) and the rate-limit changelogs: answers carry
//     X-HubSpot-RateLimit-{Daily,Daily-Remaining,Interval-Milliseconds,Max,Remaining,Secondly,Secondly-Remaining}
//     (OAuth calls get no Daily pair; CRM search answers carry none). Over a limit: 429
//     `{status, message: "You have reached your <policy> limit.", errorType: "RATE_LIMIT", correlationId,
//     policyName}`; HubSpot sends no Retry-After.
//   - Unknown paths: 404 `{status: "error", message: "resource not found", correlationId}`; an unknown object
//     type in a CRM path: 400 "Unable to infer object type from: <name>" without a category.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Answer } from '../../kit/errors.ts';
import { send as sendShared } from '../../kit/server.ts';

export type Category =
  | 'VALIDATION_ERROR'
  | 'OBJECT_NOT_FOUND'
  | 'INVALID_AUTHENTICATION'
  | 'EXPIRED_AUTHENTICATION'
  | 'RATE_LIMITS'
  | 'MISSING_SCOPES'
  | 'CONFLICT';

export type { Answer } from '../../kit/errors.ts';

/** Who a request acts as: a private app's token, or an OAuth access token (no Daily rate-limit headers). */
export type Auth = 'private-app' | 'oauth';

export const MESSAGES = {
  noCredentials:
    'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
  notFound: 'resource not found',
  missingScopes:
    "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
  internal: 'internal error',
  badRequest: 'Invalid input JSON on line 1, column 1: Cannot build the request body',
  conflict: 'Conflict',
} as const;

export function correlationId(): string {
  return randomUUID();
}

/** HubSpot's error envelope; `category` is left out where HubSpot leaves it out. */
export function errorBody(
  message: string,
  category?: Category,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    status: 'error',
    message,
    correlationId: correlationId(),
    ...(category === undefined ? {} : { category }),
    ...extra,
  };
}

export const fail = (
  status: number,
  message: string,
  category?: Category,
  extra?: Record<string, unknown>,
): Answer => ({ status, body: errorBody(message, category, extra) });

export const validation = (message: string, extra?: Record<string, unknown>): Answer =>
  fail(400, message, 'VALIDATION_ERROR', extra);

export const notFound = (): Answer => fail(404, MESSAGES.notFound, 'OBJECT_NOT_FOUND');

export const unknownObjectType = (name: string): Answer =>
  fail(400, `Unable to infer object type from: ${name}`);

/** The body HubSpot answers for a status when a fault names none. */
export function defaultErrorBody(status: number): Record<string, unknown> {
  if (status === 400) return errorBody(MESSAGES.badRequest, 'VALIDATION_ERROR');
  if (status === 401) return errorBody(MESSAGES.noCredentials, 'INVALID_AUTHENTICATION');
  if (status === 403) return errorBody(MESSAGES.missingScopes, 'MISSING_SCOPES');
  if (status === 404) return errorBody(MESSAGES.notFound, 'OBJECT_NOT_FOUND');
  if (status === 409) return errorBody(MESSAGES.conflict, 'CONFLICT');
  if (status === 429) return rateLimitBody('SECONDLY');
  return errorBody(MESSAGES.internal);
}

export type Policy = 'SECONDLY' | 'DAILY' | 'TEN_SECONDLY_ROLLING';

export function rateLimitBody(policy: Policy): Record<string, unknown> {
  return {
    status: 'error',
    message: `You have reached your ${policy.toLowerCase()} limit.`,
    errorType: 'RATE_LIMIT',
    correlationId: correlationId(),
    policyName: policy,
    category: 'RATE_LIMITS',
  };
}

/** JSON with HubSpot's content type and its correlation-id header (taken from the body when it has one). */
export function send(res: ServerResponse, answer: Answer): void {
  const body = answer.body;
  const id =
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { correlationId?: unknown }).correlationId === 'string'
      ? (body as { correlationId: string }).correlationId
      : correlationId();
  const headers: Record<string, string> = {
    'x-hubspot-correlation-id': id,
    ...(answer.headers ?? {}),
  };
  if (body === undefined) {
    sendShared(res, answer.status, headers, undefined);
    return;
  }
  sendShared(res, answer.status, { 'content-type': 'application/json;charset=utf-8', ...headers }, body);
}

export interface LimiterOptions {
  /** Enforced requests per second (SECONDLY policy); off when undefined. */
  perSecond?: number;
  /** Enforced requests per day (DAILY policy); off when undefined, reported as 250000 then. */
  daily?: number;
  /** Enforced CRM search requests per second (HubSpot: 5); off when undefined. */
  searchPerSecond?: number;
}

/**
 * HubSpot's per-account limits, counted over sliding windows: reports the X-HubSpot-RateLimit-* headers of
 * every answer and refuses only where a limit is configured, so tests never trip over HubSpot's defaults.
 */
export class RateLimiter {
  private readonly hits: number[] = [];
  private readonly searchHits: number[] = [];
  private day = '';
  private dayCount = 0;

  constructor(private readonly opts: LimiterOptions = {}) {}

  /** Counts one request and answers the headers to send, or the refused policy. */
  take(
    kind: 'api' | 'search',
    auth: Auth,
    now = Date.now(),
  ): { headers: Record<string, string>; refused?: Policy } {
    const today = new Date(now).toISOString().slice(0, 10);
    if (today !== this.day) {
      this.day = today;
      this.dayCount = 0;
    }
    prune(this.hits, now - 10_000);
    prune(this.searchHits, now - 1_000);
    const lastSecond = this.hits.filter((t) => t > now - 1_000).length;
    const secondly = this.opts.perSecond ?? 10;
    const max = this.opts.perSecond === undefined ? 100 : this.opts.perSecond * 10;
    const daily = this.opts.daily ?? 250_000;
    let refused: Policy | undefined;
    if (this.opts.daily !== undefined && this.dayCount >= this.opts.daily) refused = 'DAILY';
    else if (this.opts.perSecond !== undefined && lastSecond >= this.opts.perSecond) refused = 'SECONDLY';
    else if (
      kind === 'search' &&
      this.opts.searchPerSecond !== undefined &&
      this.searchHits.length >= this.opts.searchPerSecond
    )
      refused = 'SECONDLY';
    if (refused === undefined) {
      this.hits.push(now);
      if (kind === 'search') this.searchHits.push(now);
      this.dayCount++;
    }
    const used = refused === undefined ? 1 : 0;
    const headers: Record<string, string> =
      kind === 'search'
        ? {}
        : {
            'x-hubspot-ratelimit-interval-milliseconds': '10000',
            'x-hubspot-ratelimit-max': String(max),
            'x-hubspot-ratelimit-remaining': String(Math.max(0, max - this.hits.length)),
            'x-hubspot-ratelimit-secondly': String(secondly),
            'x-hubspot-ratelimit-secondly-remaining': String(Math.max(0, secondly - lastSecond - used)),
            ...(auth === 'private-app'
              ? {
                  'x-hubspot-ratelimit-daily': String(daily),
                  'x-hubspot-ratelimit-daily-remaining': String(Math.max(0, daily - this.dayCount)),
                }
              : {}),
          };
    return refused === undefined ? { headers } : { headers, refused };
  }
}

function prune(times: number[], before: number): void {
  while (times.length > 0 && (times[0] as number) <= before) times.shift();
}

/** The headers of a 429 whatever the counts: every window spent. */
export function exhaustedHeaders(): Record<string, string> {
  return {
    'x-hubspot-ratelimit-interval-milliseconds': '10000',
    'x-hubspot-ratelimit-max': '100',
    'x-hubspot-ratelimit-remaining': '0',
    'x-hubspot-ratelimit-secondly': '10',
    'x-hubspot-ratelimit-secondly-remaining': '0',
  };
}

export { parseJsonObject } from '../../kit/router.ts';

/** A comma list query parameter, repeated or not (`properties=a,b&properties=c`). */
export function commaList(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** HubSpot's boolean query parameters: `true`/`false`, anything else is refused. */
export function boolParam(query: URLSearchParams, name: string): boolean | 'invalid' {
  const raw = query.get(name);
  if (raw === null || raw === '') return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return 'invalid';
}
