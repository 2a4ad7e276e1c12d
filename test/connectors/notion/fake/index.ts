// A wire-faithful fake of the Notion API (https://api.notion.com/v1) on a real node:http server, following
// Notion's OpenAPI description (reference/providers/notion.json, version 2025-09-03 "data sources") and its
// developer reference pages (developers.notion.com/reference; see wire.ts for conventions, render.ts for shapes).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)    → the fault (Notion's error body for its status)
//   2. POST /v1/oauth/token                                   → Notion's OAuth token endpoint (kit/token.ts)
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
//   POST   /v1/oauth/token                       create-a-token / refresh-a-token (kit/token.ts)
// Tokens accepted: NOTION_FAKE_TOKEN (an internal integration's `ntn_` token), NOTION_FAKE_LEGACY_TOKEN (the
// older `secret_` form), `tokens` given as options, and access tokens the token endpoint issued until they
// expire. Versions accepted: 2022-06-28 and 2025-09-03.
// Hosted files (file/image/pdf blocks) point at a second server standing for Notion's S3 storage (media.ts).
// Dataset: dataset.ts (34 users, 56 pages, 7 databases / 8 data sources, 130+ blocks under one page, comments).
// Lists answer `page_size` records (max 100); without one, `pageSize` (default 100, as Notion).
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { type Fault, perSecond, type RecordedRequest, startFake } from '../../kit/index.ts';
import { Router } from '../../kit/router.ts';
import { oauthError, safeEqual, TokenEndpoint } from '../../kit/token.ts';
import type { Env } from './context.ts';
import { Dataset } from './dataset.ts';
import { type MediaHost, startMediaHost } from './media.ts';
import { Renderer } from './render.ts';
import { type NotionCtx, ROUTES } from './routes.ts';
import {
  bearer,
  codeForStatus,
  errorBody,
  fail,
  invalid,
  isAnswer,
  parseVersion,
  requestId,
  send,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

/** Notion's OAuth client ids are UUIDs; secrets start with `secret_`. */
export const NOTION_FAKE_CLIENT_ID = '1f8d872b-594c-80a4-b2f4-00370af2b13f';
export const NOTION_FAKE_CLIENT_SECRET = 'secret_cesFakeNotionOAuthClientSecret0001';
export interface NotionGrant {
  access_token: string;
  refresh_token: string;
}
export interface NotionOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** lifetime of issued access tokens in seconds; default 3600; 0 = they never expire */
  expiresIn?: number;
}

const definition = loadDefinition('notion');

/**
 * Notion's token endpoint (reference pages "Create a token" and "Refresh a token", and the Authorization
 * guide's public-connection flow), as the definition declares it: HTTP Basic client authentication and a JSON
 * body; a form body with the same members is taken too. Refresh tokens roll. The answer names the workspace
 * and the bot; refusals are OAuth-shaped with Notion's `request_id`.
 */
function notionTokenEndpoint(data: Dataset, opts: NotionOAuthOptions): TokenEndpoint {
  return new TokenEndpoint({
    definition,
    clientId: opts.clientId ?? NOTION_FAKE_CLIENT_ID,
    clientSecret: opts.clientSecret ?? NOTION_FAKE_CLIENT_SECRET,
    expiresIn: opts.expiresIn ?? 3600,
    accept: { bodyFormats: ['form'] },
    mint: {
      access: () => `ntn_${randomBytes(24).toString('base64url')}`,
      refresh: () => `nrt_${randomBytes(24).toString('base64url')}`,
    },
    headers: { 'cache-control': 'no-store' },
    answer: (issued) => {
      const owner = data.person(0);
      return {
        access_token: issued.access_token,
        token_type: 'bearer',
        refresh_token: issued.refresh_token,
        bot_id: data.bot.id,
        workspace_name: data.workspaceName,
        workspace_icon: null,
        workspace_id: data.workspaceId,
        owner: {
          type: 'user',
          user: {
            object: 'user',
            id: owner.id,
            name: owner.name,
            avatar_url: owner.avatar_url,
            type: 'person',
            person: { email: owner.email },
          },
        },
        duplicated_template_id: null,
        ...(issued.expires_in > 0 ? { expires_in: issued.expires_in } : {}),
        request_id: requestId(),
      };
    },
    refuse: (refusal) =>
      oauthError(refusal, {
        headers: { 'cache-control': 'no-store' },
        extra: () => ({ request_id: requestId() }),
      }),
  });
}

export const NOTION_TOKEN_PATH = tokenEndpointPath(definition);

/** An internal integration's token (Notion's current `ntn_` form). */
export const NOTION_FAKE_TOKEN = 'ntn_4471650297738cesFakeIntegrationTokenA1b2C3d4E5f6G7';
/** The same integration's token in Notion's older `secret_` form. */
export const NOTION_FAKE_LEGACY_TOKEN = 'secret_cesFakeIntegrationToken0001aBcDeFgHiJkLmNoPqRsT';

/** A fault: `match` is a path prefix as the fake receives it, e.g. `/v1/users`; default body Notion's. */
export type NotionFault = Fault & { match: string };

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
  oauth: TokenEndpoint;
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
  const oauth = notionTokenEndpoint(data, opts.oauth ?? {});
  const media = await startMediaHost(data, opts.fileUrlLifetimeSeconds ?? 3600, now);
  const env: Env = {
    data,
    render: new Renderer(data, (file) => media.sign(file)),
    pageSize: opts.pageSize ?? 100,
    now,
  };
  const tokens = [NOTION_FAKE_TOKEN, NOTION_FAKE_LEGACY_TOKEN, ...(opts.tokens ?? [])];
  const fake = await startFake<NotionCtx>({
    definition,
    token: oauth,
    routes: new Router(ROUTES, { trailingSlash: true }),
    authenticate: (recorded) => {
      const token = bearer(recorded.headers.authorization);
      if (token === undefined || !(tokens.some((t) => safeEqual(t, token)) || oauth.accepts(token)))
        return { refuse: fail('unauthorized') };
      const version = parseVersion(recorded.headers['notion-version']);
      return isAnswer(version) ? { refuse: version } : { env, version };
    },
    before: (recorded) => {
      if ((recorded.method !== 'POST' && recorded.method !== 'PATCH') || recorded.body.trim() === '')
        return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(recorded.body);
      } catch {
        return fail('invalid_json');
      }
      return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)
        ? invalid('body failed validation: body should be an object.')
        : undefined;
    },
    errors: {
      body: (status) => errorBody(codeForStatus(status), undefined, status),
      // Notion answers an unknown path or method with 400 invalid_request_url rather than a 404.
      notFound: () => fail('invalid_request_url'),
      rateLimited: (wait) => ({ ...fail('rate_limited'), headers: { 'retry-after': String(wait) } }),
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    send,
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  const origin = fake.origin;
  return {
    url: `${origin}/v1`,
    origin,
    oauth,
    media,
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    apiRequests: () => fake.requests.filter((r) => !oauth.serves(r)),
    close: async () => {
      await fake.close();
      await media.close();
    },
  };
}
