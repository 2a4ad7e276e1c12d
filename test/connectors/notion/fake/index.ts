// A wire-faithful fake of the Notion API (https://api.notion.com/v1) on a real node:http server, following
// Notion's OpenAPI description (reference/providers/notion.json, version 2025-09-03 "data sources") and its
// developer reference pages (developers.notion.com/reference; see wire.ts for conventions, render.ts for shapes).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)    → the fault (Notion's error body for its status)
//   2. POST /v1/oauth/token                                   → Notion's OAuth token endpoint (oauth.ts)
//   3. no, or an unknown, `Authorization: Bearer` token       → 401 {object:"error", code:"unauthorized", …}
//   4. no (or an unsupported) `Notion-Version` header         → 400 missing_version
//   5. over the configured per-second limit (off by default)  → 429 rate_limited + Retry-After
//   6. a POST/PATCH body that is not JSON / not an object     → 400 invalid_json / validation_error
//   7. a route of routes.ts over the seeded dataset           → its answer
//   8. anything else                                          → 400 invalid_request_url, recorded in `unhandled`
//      (Notion answers an unknown path or method that way rather than with a 404)
// Routes (operationId of notion.json):
//   GET    /v1/users/me                          get-self                 the integration's bot user
//   GET    /v1/users                             get-users                cursor list (start_cursor, page_size)
//   GET    /v1/users/{user_id}                   get-user
//   POST   /v1/search                            post-search              cursor list in the body (query.ts)
//   GET    /v1/pages/{page_id}                   retrieve-a-page          filter_properties honoured
//   POST   /v1/pages                             post-page                (writes.ts)
//   PATCH  /v1/pages/{page_id}                   patch-page               (writes.ts)
//   GET    /v1/data_sources/{data_source_id}     retrieve-a-data-source   2025-09-03 only
//   POST   /v1/data_sources/{id}/query           query-data-source        2025-09-03 only; filters (query.ts)
//   GET    /v1/databases/{database_id}           retrieve-a-database      shape per version
//   GET    /v1/blocks/{block_id}                 retrieve-a-block         pages answer as child_page blocks
//   GET    /v1/blocks/{block_id}/children        get-block-children       cursor list
//   PATCH  /v1/blocks/{block_id}/children        patch-block-children     (writes.ts)
//   PATCH  /v1/blocks/{block_id}                  update-a-block           (writes.ts)
//   DELETE /v1/blocks/{block_id}                  delete-a-block           (writes.ts)
//   GET    /v1/comments?block_id=                retrieve-a-comment       cursor list
//   POST   /v1/comments                          create-a-comment         (writes.ts)
//   POST   /v1/oauth/token                       create-a-token / refresh-a-token (oauth.ts)
// Tokens accepted: NOTION_FAKE_TOKEN (an internal integration's `ntn_` token), NOTION_FAKE_LEGACY_TOKEN (the
// older `secret_` form), `tokens` given as options, and access tokens the token endpoint issued until they
// expire. Versions accepted: 2022-06-28 and 2025-09-03.
// Hosted files (file/image/pdf blocks) point at a second server standing for Notion's S3 storage (media.ts).
// Dataset: dataset.ts (34 users, 56 pages, 7 databases / 8 data sources, 130+ blocks under one page, comments).
// Lists answer `page_size` records (max 100); without one, `pageSize` (default 100, as Notion).
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import type { Env } from './context.ts';
import { Dataset } from './dataset.ts';
import { type MediaHost, startMediaHost } from './media.ts';
import { NOTION_TOKEN_PATH, type NotionOAuthOptions, NotionOAuthServer } from './oauth.ts';
import { Renderer } from './render.ts';
import { dispatch } from './routes.ts';
import {
  type Answer,
  bearer,
  codeForStatus,
  errorBody,
  fail,
  invalid,
  isAnswer,
  parseVersion,
  RateLimiter,
  safeEqual,
  send,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export {
  NOTION_FAKE_CLIENT_ID,
  NOTION_FAKE_CLIENT_SECRET,
  NOTION_TOKEN_PATH,
  type NotionGrant,
} from './oauth.ts';

/** An internal integration's token (Notion's current `ntn_` form). */
export const NOTION_FAKE_TOKEN = 'ntn_4471650297738cesFakeIntegrationTokenA1b2C3d4E5f6G7';
/** The same integration's token in Notion's older `secret_` form. */
export const NOTION_FAKE_LEGACY_TOKEN = 'secret_cesFakeIntegrationToken0001aBcDeFgHiJkLmNoPqRsT';

export interface NotionFault {
  status: number;
  /** path prefix as the fake receives it, e.g. `/v1/users` */
  match: string;
  headers?: Record<string, string>;
  /** the answer's body; default Notion's error body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
}

export interface NotionFakeOptions {
  /** bearer tokens accepted besides NOTION_FAKE_TOKEN and NOTION_FAKE_LEGACY_TOKEN */
  tokens?: string[];
  /** the OAuth client the token endpoint knows, and the lifetime of the access tokens it issues */
  oauth?: NotionOAuthOptions;
  /** records per page when a request gives no page_size; default 100 as Notion */
  pageSize?: number;
  /** enforce a per-second request limit (Notion: an average of 3); default off */
  rateLimitPerSecond?: number;
  /** answer every request this much later (benchmarks); default 0 */
  responseDelayMs?: number;
  /** lifetime of hosted files' signed URLs, seconds; default 3600 as Notion */
  fileUrlLifetimeSeconds?: number;
  /** the clock writes stamp records with, and file URLs are signed by; default Date.now */
  now?: () => number;
}

export interface NotionFake {
  /** the API root, like https://api.notion.com/v1 */
  url: string;
  origin: string;
  /** the token endpoint: issue grants and codes, expire or revoke tokens, read `issued` */
  oauth: NotionOAuthServer;
  /** the hosted-file storage (another origin) */
  media: MediaHost;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: NotionFault): void;
  /** requests to the token endpoint */
  tokenRequests(): RecordedRequest[];
  /** requests to the API besides the token endpoint */
  apiRequests(): RecordedRequest[];
  data: Dataset;
  close(): Promise<void>;
}

export async function startNotionFake(opts: NotionFakeOptions = {}): Promise<NotionFake> {
  const now = opts.now ?? Date.now;
  const data = new Dataset();
  const oauth = new NotionOAuthServer(data, opts.oauth);
  const media = await startMediaHost(data, opts.fileUrlLifetimeSeconds ?? 3600, now);
  const env: Env = {
    data,
    render: new Renderer(data, (file) => media.sign(file)),
    pageSize: opts.pageSize ?? 100,
    now,
  };
  const tokens = [NOTION_FAKE_TOKEN, NOTION_FAKE_LEGACY_TOKEN, ...(opts.tokens ?? [])];
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<NotionFault & { times: number }> = [];
  const limiter = new RateLimiter(opts.rateLimitPerSecond);

  const takeFault = (path: string): NotionFault | undefined => {
    const index = faults.findIndex((f) => path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const handle = (recorded: RecordedRequest): Answer => {
    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      const headers = Object.fromEntries(
        Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      );
      const code = codeForStatus(fault.status);
      return { status: fault.status, headers, body: fault.body ?? errorBody(code, undefined, fault.status) };
    }
    const url = new URL(recorded.path, 'http://fake.invalid');
    if (isTokenRequest(recorded)) return oauth.token(recorded);
    const token = bearer(recorded.headers.authorization);
    if (token === undefined || !(tokens.some((t) => safeEqual(t, token)) || oauth.acceptsAccessToken(token)))
      return fail('unauthorized');
    const version = parseVersion(recorded.headers['notion-version']);
    if (isAnswer(version)) return version;
    const wait = limiter.take();
    if (wait !== undefined) {
      const limited = fail('rate_limited');
      return { ...limited, headers: { 'retry-after': String(wait) } };
    }
    let body: Record<string, unknown> = {};
    if ((recorded.method === 'POST' || recorded.method === 'PATCH') && recorded.body.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(recorded.body);
      } catch {
        return fail('invalid_json');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return invalid('body failed validation: body should be an object.');
      body = parsed as Record<string, unknown>;
    }
    const answer = dispatch(env, {
      method: recorded.method,
      pathname: url.pathname,
      query: url.searchParams,
      body,
      version,
    });
    if (answer !== undefined) return answer;
    unhandled.push(recorded);
    return fail('invalid_request_url');
  };

  const server = await startRecordingServer(
    (_req, res, recorded) => {
      const out = handle(recorded);
      const delay = isTokenRequest(recorded) ? oauth.tokenDelayMs : 0;
      if (delay > 0) setTimeout(() => send(res, out), delay);
      else send(res, out);
    },
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  const origin = server.origin;
  return {
    url: `${origin}/v1`,
    origin,
    oauth,
    media,
    requests,
    unhandled,
    data,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    tokenRequests: () => requests.filter(isTokenRequest),
    apiRequests: () => requests.filter((r) => !isTokenRequest(r)),
    close: async () => {
      await server.close();
      await media.close();
    },
  };
}

function isTokenRequest(r: RecordedRequest): boolean {
  return r.method === 'POST' && new URL(r.path, 'http://fake.invalid').pathname === NOTION_TOKEN_PATH;
}
