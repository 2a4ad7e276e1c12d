// GitHub wire conventions shared by every route: auth parsing, rate-limit headers, error bodies.
// References (docs.github.com):
//   - "Authenticating to the REST API" (token / Bearer schemes, Basic with a token as password)
//   - "Rate limits for the REST API" → "Checking the status of your rate limit" (x-ratelimit-* headers,
//     core: 5000/h authenticated, 60/h unauthenticated; search: 30/min authenticated, 10/min unauthenticated)
//   - "Troubleshooting the REST API" (401 Bad credentials, 404 for private resources without auth)
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const API_VERSION = '2022-11-28';
export const REST_DOCS = 'https://docs.github.com/rest';

export type Auth = { kind: 'anonymous' } | { kind: 'token'; token: string } | { kind: 'bad' };

export function parseAuth(headers: IncomingHttpHeaders, accepted: ReadonlySet<string>): Auth {
  const raw = headers.authorization;
  if (raw === undefined || raw.trim() === '') return { kind: 'anonymous' };
  const space = raw.indexOf(' ');
  const scheme = (space === -1 ? raw : raw.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : raw.slice(space + 1).trim();
  let token = '';
  if (scheme === 'token' || scheme === 'bearer') token = value;
  else if (scheme === 'basic') {
    // GitHub accepts a token as the Basic password (the username is ignored).
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    token = decoded.slice(decoded.indexOf(':') + 1);
  }
  // A present-but-wrong credential is a 401 even on public resources, exactly as GitHub does.
  return token !== '' && accepted.has(token) ? { kind: 'token', token } : { kind: 'bad' };
}

export type RateResource = 'core' | 'search' | 'graphql';

interface Bucket {
  used: number;
  resetAt: number; // epoch seconds
}

const WINDOWS: Record<RateResource, { seconds: number; authed: number; anon: number }> = {
  core: { seconds: 3600, authed: 5000, anon: 60 },
  search: { seconds: 60, authed: 30, anon: 10 },
  // GraphQL's budget is 5000 points an hour; every query the fake serves costs one point. No anonymous access.
  graphql: { seconds: 3600, authed: 5000, anon: 0 },
};

/** Counts requests per credential and resource so x-ratelimit-remaining really decreases. Exhaustion is
 * reported in the headers but never enforced: benchmarks must not trip over it; tests inject 403/429 with
 * failNext instead. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  take(auth: Auth, resource: RateResource): Record<string, string> {
    const authed = auth.kind === 'token';
    const key = `${authed ? auth.token : 'anonymous'}|${resource}`;
    const window = WINDOWS[resource];
    const now = Math.floor(Date.now() / 1000);
    let bucket = this.buckets.get(key);
    if (bucket === undefined || now >= bucket.resetAt) {
      bucket = { used: 0, resetAt: now + window.seconds };
      this.buckets.set(key, bucket);
    }
    bucket.used += 1;
    const limit = authed ? window.authed : window.anon;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - bucket.used)),
      'x-ratelimit-reset': String(bucket.resetAt),
      'x-ratelimit-used': String(bucket.used),
      'x-ratelimit-resource': resource,
    };
  }
}

const EXPOSED =
  'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, ' +
  'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, ' +
  'X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

export const FAKE_OAUTH_SCOPES = 'read:org, read:user, repo';

/** The headers api.github.com puts on every JSON response (as seen in the @octokit/fixtures recordings). */
export function baseHeaders(auth: Auth, rate: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control':
      auth.kind === 'token' ? 'private, max-age=60, s-maxage=60' : 'public, max-age=60, s-maxage=60',
    vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED,
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': API_VERSION,
    'x-github-request-id': requestId(),
    'x-content-type-options': 'nosniff',
    ...rate,
  };
  if (auth.kind === 'token') headers['x-oauth-scopes'] = FAKE_OAUTH_SCOPES;
  return headers;
}

function requestId(): string {
  const hex = randomBytes(10).toString('hex').toUpperCase();
  return `${hex.slice(0, 4)}:${hex.slice(4, 9)}:${hex.slice(9, 16)}:${hex.slice(16, 20)}:00000000`;
}

/** GitHub's current error body: message, documentation_url and the status as a string. */
export function errorBody(status: number, message: string, documentationUrl = REST_DOCS) {
  return { message, documentation_url: documentationUrl, status: String(status) };
}
