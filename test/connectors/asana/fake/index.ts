// A wire-faithful fake of the Asana REST API (https://app.asana.com/api/1.0) on a real node:http server,
// following Asana's OpenAPI description (reference/providers/asana.yaml; facts in test/reference/providers/
// asana.json) and its developer pages (developers.asana.com/docs: errors, pagination, rate limits, OAuth).
// Dispatch order for every request (the kit's, kit/index.ts):
//   1. a fault injected with failNext (matching path prefix)   → the fault (Asana's {errors} body)
//   2. POST /-/oauth_token                                     → Asana's OAuth token endpoint (kit/token.ts)
//   3. no, or an unknown, `Authorization: Bearer` token        → 401 {errors: [{message: "Not Authorized"}]}
//   4. over the per-minute budget (off unless a test enables it) → 429 + Retry-After
//   5. a write whose body is not JSON                          → 400
//   6. a route of routes-read.ts / routes-write.ts             → its answer
//   7. anything else                                           → 404 "No matching route for request", recorded
// Routes: every operationId named in the route files (getWorkspaces ... searchTasksForWorkspace).
// Tokens accepted: ASANA_FAKE_PAT (a personal access token, `2/<user gid>/<token gid>:<hex>`), `tokens` given as
// options, and access tokens the token endpoint issued until they expire (an hour, as Asana's).
// Attachments hosted by Asana point at a second server standing for its S3 file storage (storage.ts).
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { type Fault, type RateLimitOptions, type RecordedRequest, startFake } from '../../kit/index.ts';
import { Router } from '../../kit/router.ts';
import { oauthError, safeEqual, TokenEndpoint } from '../../kit/token.ts';
import { Dataset, type DatasetOptions } from './dataset.ts';
import { Renderer } from './render.ts';
import { type AsanaCtx, type Env, READ_ROUTES } from './routes-read.ts';
import { WRITE_ROUTES } from './routes-write.ts';
import { type FileStorage, startFileStorage } from './storage.ts';
import { bearer, DEFAULT_MESSAGES, errorBody, fail } from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

const definition = loadDefinition('asana');

export const ASANA_FAKE_PAT = '2/1206000000000008/1208000000000123:5f2c0d7e9a41b3c86d0e4f1a2b7c9d3e';
export const ASANA_FAKE_CLIENT_ID = '1208000000000456';
export const ASANA_FAKE_CLIENT_SECRET = 'a3f9c2e17b5d4086e1f2a9c3b7d5e0f4';
export const ASANA_TOKEN_PATH = tokenEndpointPath(definition);

export interface AsanaFakeOptions extends DatasetOptions {
  /** bearer tokens accepted besides ASANA_FAKE_PAT */
  tokens?: string[];
  /** lifetime of access tokens the token endpoint issues, seconds; default 3600 as Asana's */
  expiresIn?: number;
  /** Asana's per-minute budget, as requests per second; off unless given */
  rateLimit?: RateLimitOptions;
  /** lifetime of the storage's signed URLs, seconds; default 120 */
  downloadUrlLifetimeSeconds?: number;
  /** the clock writes stamp records with and signed URLs expire by; default Date.now */
  now?: () => number;
}

export interface AsanaFake {
  /** the API root, like https://app.asana.com/api/1.0 */
  url: string;
  origin: string;
  oauth: TokenEndpoint;
  storage: FileStorage;
  data: Dataset;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: Fault & { match: string }): void;
  tokenRequests(): RecordedRequest[];
  /** requests to the API besides the token endpoint */
  apiRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Asana's token endpoint (https://developers.asana.com/docs/oauth#token-exchange-endpoint), as the definition
 * declares it: a form body carrying client_id and client_secret. A refresh answers a new access token without a
 * refresh token (the one presented keeps working); every answer names the user in `data`.
 */
function asanaTokenEndpoint(data: Dataset, expiresIn: number): TokenEndpoint {
  return new TokenEndpoint({
    definition,
    clientId: ASANA_FAKE_CLIENT_ID,
    clientSecret: ASANA_FAKE_CLIENT_SECRET,
    expiresIn,
    rotate: false,
    mint: {
      access: () => `2/${data.me.gid}/${randomBytes(6).readUIntBE(0, 6)}:${randomBytes(16).toString('hex')}`,
      refresh: () => `2/${data.me.gid}/${randomBytes(6).readUIntBE(0, 6)}:${randomBytes(16).toString('hex')}`,
    },
    answer: (issued) => ({
      access_token: issued.access_token,
      token_type: 'bearer',
      expires_in: issued.expires_in,
      ...(issued.grant === 'authorization_code' ? { refresh_token: issued.refresh_token } : {}),
      data: { id: Number(data.me.gid), gid: data.me.gid, name: data.me.name, email: data.me.email },
    }),
    refuse: (refusal) => oauthError(refusal),
  });
}

export async function startAsanaFake(opts: AsanaFakeOptions = {}): Promise<AsanaFake> {
  const now = opts.now ?? Date.now;
  const data = new Dataset(opts);
  const oauth = asanaTokenEndpoint(data, opts.expiresIn ?? 3600);
  const storage = await startFileStorage(data, opts.downloadUrlLifetimeSeconds ?? 120, now);
  const tokens = [ASANA_FAKE_PAT, ...(opts.tokens ?? [])];
  const env: Env = { data, render: new Renderer(data, (key) => storage.sign(key)), origin: '', now };
  const fake = await startFake<AsanaCtx>({
    definition,
    token: oauth,
    routes: new Router([...READ_ROUTES, ...WRITE_ROUTES]),
    authenticate: (recorded) => {
      const token = bearer(recorded.headers.authorization);
      if (token === undefined || !(tokens.some((t) => safeEqual(t, token)) || oauth.accepts(token)))
        return { refuse: fail(401, 'Not Authorized') };
      return { env };
    },
    before: (recorded) => {
      if (recorded.method === 'GET' || recorded.method === 'DELETE' || recorded.body.trim() === '')
        return undefined;
      try {
        JSON.parse(recorded.body);
        return undefined;
      } catch {
        return fail(400, 'Could not parse request data, invalid JSON');
      }
    },
    errors: {
      body: (status) => errorBody(DEFAULT_MESSAGES[status] ?? 'Error', status),
      notFound: () => fail(404, 'No matching route for request'),
      rateLimited: (wait) => ({
        ...fail(429, DEFAULT_MESSAGES[429] as string),
        headers: { 'retry-after': String(wait) },
      }),
    },
    rateLimit: opts.rateLimit,
  });
  env.origin = fake.origin;
  return {
    url: `${fake.origin}/api/1.0`,
    origin: fake.origin,
    oauth,
    storage,
    data,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    apiRequests: () => fake.requests.filter((r) => !oauth.serves(r)),
    close: async () => {
      await fake.close();
      await storage.close();
    },
  };
}
