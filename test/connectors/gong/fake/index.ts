// A wire-faithful fake of the Gong API v2 (https://api.gong.io/v2) on a real node:http server, following
// Gong's public API reference (https://help.gong.io/apidocs; see wire.ts and routes.ts for the pages).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)        → the fault
//   2. POST /oauth2/generate-customer-token                        → Gong's OAuth token endpoint (kit/token.ts)
//   3. no or unknown credentials (Basic access key, Bearer token)  → 401 {requestId, errors: ["Access denied"]}
//   4. over the configured per-second limit (off by default)       → 429 + Retry-After
//   5. a route of routes.ts over the seeded dataset                → its answer
//   6. anything else                                               → 404, recorded in `unhandled`
// Bearer tokens accepted: those of `oauthTokens` (never expire) and access tokens the token endpoint issued
// (until they expire). Gong serves the token endpoint on app.gong.io; here it shares the API's origin, as an
// upstream override of `gong` rewrites the token URL's origin to the override's.
// Recordings live on a second server standing for Gong's media storage (media.ts), on another origin.
// Settings, library, coaching and stats routes: routes-more.ts.
// Dataset (dataset.ts): 3 workspaces, `users` users (default 230) plus 2 avatars, `calls` calls (default 250)
// scheduled every 5 hours from 2024-01-01T08:00:00Z, each with two parties and a transcript. Lists page by
// `pageSize` records (Gong: 100).
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { type Fake, type Fault, perSecond, type RecordedRequest, startFake } from '../../kit/index.ts';
import { oauthError, TokenEndpoint } from '../../kit/token.ts';
import { Dataset } from './dataset.ts';
import { type MediaHost, startMediaHost } from './media.ts';
import { createRoutes } from './routes.ts';
import { errorBody, gongCursors, MESSAGES, parseAuth, send } from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

export const GONG_FAKE_CLIENT_ID = 'ces-gong-fake-app-0001';
export const GONG_FAKE_CLIENT_SECRET = 'gong-fake-client-secret-7Qk2v9Xw';
/** The scopes a token of the fake carries (Gong answers the granted scopes, space-separated). */
export const GONG_FAKE_SCOPE =
  'api:users:read api:calls:read:basic api:calls:read:extensive api:calls:read:transcript api:workspaces:read';
export interface GongGrant {
  access_token: string;
  refresh_token: string;
}
export interface GongOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 86400 (a day, as Gong's) */
  expiresIn?: number;
}

/** A fault: `match` is a path prefix such as `/v2/calls`; the default body is Gong's error body. */
export type GongFault = Fault;

export interface GongFakeOptions {
  /** the accepted access key pair (Basic auth), default GONG_FAKE_ACCESS_KEY / GONG_FAKE_ACCESS_KEY_SECRET */
  accessKey?: string;
  accessKeySecret?: string;
  /** accepted OAuth bearer tokens besides those the token endpoint issues, default none */
  oauthTokens?: string[];
  /** the OAuth app the token endpoint knows, and the lifetime of the access tokens it issues */
  oauth?: GongOAuthOptions;
  /** records per page, default 100 as Gong */
  pageSize?: number;
  /** seeded users (besides 2 avatars), default 230 */
  users?: number;
  /** seeded calls, default 250 */
  calls?: number;
  /** enforce Gong's per-second request limit (Gong: 3); default off so tests don't trip over it */
  rateLimitPerSecond?: number;
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface GongFake {
  /** the API root, like https://api.gong.io/v2, e.g. http://127.0.0.1:54321/v2 */
  url: string;
  /** the origin, e.g. http://127.0.0.1:54321 (the token endpoint is `${origin}/oauth2/generate-customer-token`) */
  origin: string;
  /** the OAuth token endpoint: issue grants, expire or revoke tokens, read `issued` for leak checks */
  oauth: TokenEndpoint;
  /** requests to the token endpoint */
  tokenRequests(): RecordedRequest[];
  /** requests to the API (/v2/...) */
  apiRequests(): RecordedRequest[];
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched (answered 404 AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: GongFault): void;
  /** append `count` generated calls (dated after the existing ones) */
  seedCalls(count: number): void;
  /** the seeded data, for assertions */
  data: Dataset;
  /** Gong's media storage (another origin): where call recordings are fetched from, without credentials */
  media: MediaHost;
  close(): Promise<void>;
}

export const GONG_FAKE_ACCESS_KEY = 'CESFAKEACCESSKEY0001';
export const GONG_FAKE_ACCESS_KEY_SECRET = 'eyJhbGciOiJIUzI1NiJ9.eyJjZXMiOiJmYWtlIn0.ces-fake-secret-0001';

const definition = loadDefinition('gong');

/**
 * Gong's OAuth token endpoint for apps (https://help.gong.io/docs/create-an-app-for-gong, "Set up OAuth
 * access"), as the definition's refresh block declares it: HTTP Basic client authentication, a form body.
 * Gong's page shows the params in the query string, and Gong takes them there too (never both at once).
 * Refresh grant only: the fake does not implement the code exchange. Refresh tokens are single-use.
 * Success: {access_token, refresh_token, scope, token_type, expires_in, api_base_url_for_customer}; refusals
 * in RFC 6749 5.2's shape, as Gong answers them.
 */
function gongTokenEndpoint(opts: GongOAuthOptions, apiBaseUrl: () => string): TokenEndpoint {
  return new TokenEndpoint({
    definition,
    clientId: opts.clientId ?? GONG_FAKE_CLIENT_ID,
    clientSecret: opts.clientSecret ?? GONG_FAKE_CLIENT_SECRET,
    expiresIn: opts.expiresIn ?? 86_400,
    grants: ['refresh_token'],
    accept: { bodyFormats: ['query'] },
    mint: { access: () => jwtLike('access'), refresh: () => jwtLike('refresh') },
    answer: (issued) => ({
      access_token: issued.access_token,
      refresh_token: issued.refresh_token,
      scope: GONG_FAKE_SCOPE,
      token_type: 'bearer',
      expires_in: issued.expires_in,
      api_base_url_for_customer: apiBaseUrl(),
    }),
    refuse: (refusal) => oauthError(refusal, { realm: 'gong' }),
  });
}

/** Gong's tokens are JWTs; these have the same shape and are unique. */
function jwtLike(kind: 'access' | 'refresh'): string {
  const header = Buffer.from('{"alg":"HS256"}').toString('base64url');
  const payload = Buffer.from(JSON.stringify({ typ: kind, nonce: randomBytes(6).toString('hex') })).toString(
    'base64url',
  );
  return `${header}.${payload}.${randomBytes(24).toString('base64url')}`;
}

export const GONG_TOKEN_PATH = tokenEndpointPath(definition);

export async function startGongFake(opts: GongFakeOptions = {}): Promise<GongFake> {
  let origin = '';
  const oauth = gongTokenEndpoint(opts.oauth ?? {}, () => origin);
  const creds = {
    accessKey: opts.accessKey ?? GONG_FAKE_ACCESS_KEY,
    accessKeySecret: opts.accessKeySecret ?? GONG_FAKE_ACCESS_KEY_SECRET,
    oauthTokens: new Set(opts.oauthTokens ?? []),
    issuedToken: (token: string) => oauth.accepts(token),
  };
  const data = new Dataset({ users: opts.users ?? 230, avatars: 2, calls: opts.calls ?? 250 });
  const media = await startMediaHost(data);
  const fake: Fake = await startFake({
    definition,
    token: oauth,
    routes: createRoutes(data, gongCursors(), opts.pageSize ?? 100, (call, kind) => media.urlFor(call, kind)),
    authenticate: (recorded) => {
      const auth = parseAuth(recorded.headers, creds);
      return auth.kind === 'none' || auth.kind === 'bad'
        ? { refuse: { status: 401, body: errorBody(MESSAGES.accessDenied) } }
        : auth;
    },
    errors: {
      body: (status) => errorBody(defaultMessage(status)),
      rateLimited: (wait) => ({
        status: 429,
        headers: { 'retry-after': String(wait) },
        body: errorBody(MESSAGES.rateLimited),
      }),
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    send: (res, answer) => send(res, answer.status, answer.headers ?? {}, answer.body),
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  origin = fake.origin;

  return {
    url: `${origin}/v2`,
    origin,
    oauth,
    tokenRequests: fake.tokenRequests,
    apiRequests: () => fake.requests.filter((r) => r.path.startsWith('/v2/')),
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    seedCalls(count) {
      data.seedCalls(count);
    },
    media,
    close: async () => {
      await fake.close();
      await media.close();
    },
  };
}

function defaultMessage(status: number): string {
  if (status === 401) return MESSAGES.accessDenied;
  if (status === 404) return MESSAGES.notFound;
  if (status === 429) return MESSAGES.rateLimited;
  if (status >= 500) return 'Failed to complete the operation due to an unexpected error';
  return MESSAGES.malformed;
}
