// A wire-faithful fake of the Gong API v2 (https://api.gong.io/v2) on a real node:http server, following
// Gong's public API reference (https://help.gong.io/apidocs; see wire.ts and routes.ts for the pages).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)        → the fault
//   2. POST /oauth2/generate-customer-token                        → Gong's OAuth token endpoint (oauth.ts)
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
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import { Dataset } from './dataset.ts';
import { type MediaHost, startMediaHost } from './media.ts';
import { GONG_TOKEN_PATH, type GongOAuthOptions, GongOAuthServer } from './oauth.ts';
import { createRoutes, type RouteRequest } from './routes.ts';

export { GONG_FAKE_CLIENT_ID, GONG_FAKE_CLIENT_SECRET, GONG_TOKEN_PATH, type GongGrant } from './oauth.ts';

import { CursorCodec, errorBody, MESSAGES, parseAuth, RateLimiter, send } from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';

export interface GongFault {
  status: number;
  headers?: Record<string, string>;
  /** object → JSON, string → raw; default: Gong's error body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
  /** optional path prefix the fault applies to, e.g. `/v2/calls` */
  match?: string;
}

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
  oauth: GongOAuthServer;
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

export async function startGongFake(opts: GongFakeOptions = {}): Promise<GongFake> {
  const oauth = new GongOAuthServer(opts.oauth);
  const creds = {
    accessKey: opts.accessKey ?? GONG_FAKE_ACCESS_KEY,
    accessKeySecret: opts.accessKeySecret ?? GONG_FAKE_ACCESS_KEY_SECRET,
    oauthTokens: new Set(opts.oauthTokens ?? []),
    issuedToken: (token: string) => oauth.acceptsAccessToken(token),
  };
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<GongFault & { times: number }> = [];
  const limiter = new RateLimiter(opts.rateLimitPerSecond);
  const data = new Dataset({ users: opts.users ?? 230, avatars: 2, calls: opts.calls ?? 250 });
  const media = await startMediaHost(data);
  const routes = createRoutes(data, new CursorCodec(), opts.pageSize ?? 100, (call, kind) =>
    media.urlFor(call, kind),
  );

  const takeFault = (path: string): GongFault | undefined => {
    const index = faults.findIndex((f) => f.match === undefined || path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const handle = (
    recorded: RecordedRequest,
  ): { status: number; headers?: Record<string, string>; body: unknown } => {
    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      return {
        status: fault.status,
        headers: Object.fromEntries(
          Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
        ),
        body: fault.body ?? errorBody(defaultMessage(fault.status)),
      };
    }
    const url = new URL(recorded.path, 'http://fake.invalid');
    if (recorded.method === 'POST' && url.pathname === GONG_TOKEN_PATH) return oauth.token(recorded);
    const auth = parseAuth(recorded.headers, creds);
    if (auth.kind === 'none' || auth.kind === 'bad')
      return { status: 401, body: errorBody(MESSAGES.accessDenied) };
    const wait = limiter.take();
    if (wait !== undefined) {
      return { status: 429, headers: { 'retry-after': String(wait) }, body: errorBody(MESSAGES.rateLimited) };
    }
    const req: RouteRequest = {
      method: recorded.method,
      pathname: url.pathname,
      query: url.searchParams,
      body: recorded.method === 'POST' ? parseBody(recorded.body) : undefined,
    };
    const result = routes(req);
    if (result !== undefined) return result;
    unhandled.push(recorded);
    return { status: 404, body: errorBody(MESSAGES.notFound) };
  };

  const server = await startRecordingServer(
    (_req, res, recorded) => {
      const out = handle(recorded);
      const delay = isTokenRequest(recorded) ? oauth.tokenDelayMs : 0;
      if (delay > 0) setTimeout(() => send(res, out.status, out.headers ?? {}, out.body), delay);
      else send(res, out.status, out.headers ?? {}, out.body);
    },
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  const origin = server.origin;
  oauth.apiBaseUrl = origin;

  return {
    url: `${origin}/v2`,
    origin,
    oauth,
    tokenRequests: () => requests.filter(isTokenRequest),
    apiRequests: () => requests.filter((r) => r.path.startsWith('/v2/')),
    requests,
    unhandled,
    data,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    seedCalls(count) {
      data.seedCalls(count);
    },
    media,
    close: async () => {
      await server.close();
      await media.close();
    },
  };
}

function isTokenRequest(r: RecordedRequest): boolean {
  return r.method === 'POST' && new URL(r.path, 'http://fake.invalid').pathname === GONG_TOKEN_PATH;
}

function parseBody(raw: string): Record<string, unknown> | 'invalid' | undefined {
  if (raw === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : 'invalid';
  } catch {
    return 'invalid';
  }
}

function defaultMessage(status: number): string {
  if (status === 401) return MESSAGES.accessDenied;
  if (status === 404) return MESSAGES.notFound;
  if (status === 429) return MESSAGES.rateLimited;
  if (status >= 500) return 'Failed to complete the operation due to an unexpected error';
  return MESSAGES.malformed;
}
