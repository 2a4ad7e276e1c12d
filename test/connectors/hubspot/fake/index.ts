// A wire-faithful fake of HubSpot's CRM API (https://api.hubapi.com) on the fake kit (kit/index.ts), built from
// HubSpot's public developer documentation (no spec file is vendored; see wire.ts, model.ts, search.ts and
// oauth.ts for the pages each part follows). The API root is the origin, so `url` === `origin`.
// The kit answers every request in this order:
//   1. fault injected with failNext (matching path prefix)            → the fault (HubSpot's body by default;
//                                                                       a 429 with every window spent)
//   2. POST /oauth/v1/token                                           → OAuth token endpoint (oauth.ts on kit/token.ts);
//                                                                       another method: 405, recorded in `unhandled`
//   3. no, unknown or expired `Authorization: Bearer` token           → 401 INVALID_AUTHENTICATION /
//                                                                       EXPIRED_AUTHENTICATION
//   4. over a configured limit (daily, per second, search per second) → 429 RATE_LIMIT body + policyName (the
//                                                                       kit's `budget`: wire.ts RateLimiter)
//   5. a route below over the seeded dataset                          → its answer (+ X-HubSpot-RateLimit-*)
//   6. anything else                                                  → 404 "resource not found" (405 for a
//                                                                       known path), recorded in `unhandled`
// Routes (reference operation in brackets; routes.ts unless noted):
//   GET    /account-info/v3/details                   [Account info: getAccountDetails]
//   GET    /crm/v3/schemas                            [Schemas: getAll]            {results}
//   GET    /crm/v3/schemas/{objectType}               [Schemas: getById]
//   GET    /crm/v3/objects/{objectType}               [Objects basic: getPage]     {results, paging.next{after,link}}
//   POST   /crm/v3/objects/{objectType}               [Objects basic: create]      201
//   GET    /crm/v3/objects/{objectType}/{objectId}    [Objects basic: getById]     idProperty, archived
//   PATCH  /crm/v3/objects/{objectType}/{objectId}    [Objects basic: update]
//   DELETE /crm/v3/objects/{objectType}/{objectId}    [Objects basic: archive]     204
//   POST   /crm/v3/objects/{objectType}/search        [Search: doSearch] (search.ts) {total, results, paging.next.after}
//   POST   /oauth/v1/token                            [OAuth: token, refresh_token/authorization_code] (oauth.ts on kit/token.ts)
// {objectType}: contacts, companies, deals, tickets (or 0-1, 0-2, 0-3, 0-5, singular names) and the custom
// object `cars` as p24681357_cars, 2-7654321 or p_cars.
// Dataset (dataset.ts): 64 contacts, 28 companies, 30 deals, 27 tickets, 12 cars by default, every 20th
// archived; lists page 10 by default (`limit` up to 100), search 10 (up to 200).

import { loadDefinition } from '../../kit/definition.ts';
import { type Answer, type Fault, faultAnswer } from '../../kit/errors.ts';
import { type InjectedFault, type RecordedRequest, startFake } from '../../kit/index.ts';
import { Router } from '../../kit/router.ts';
import type { TokenEndpoint } from '../../kit/token.ts';
import { Dataset, DEFAULT_COUNTS, type SeedCounts } from './dataset.ts';
import { type HubSpotOAuthOptions, hubspotTokenEndpoint } from './oauth.ts';
import { createRoutes, type HubSpotCtx } from './routes.ts';
import {
  type Auth,
  defaultErrorBody,
  exhaustedHeaders,
  fail,
  MESSAGES,
  RateLimiter,
  rateLimitBody,
  send,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export { CUSTOM_FQN, CUSTOM_TYPE_ID, PORTAL_ID } from './model.ts';
export {
  HUBSPOT_FAKE_CLIENT_ID,
  HUBSPOT_FAKE_CLIENT_SECRET,
  HUBSPOT_FAKE_REDIRECT_URI,
  HUBSPOT_FAKE_REFRESH_TOKEN,
  HUBSPOT_TOKEN_PATH,
} from './oauth.ts';

/** The private-app access token the fake accepts by default (HubSpot's `pat-<region>-<uuid>` shape). */
export const HUBSPOT_FAKE_PRIVATE_APP_TOKEN = 'pat-na1-3f9c2d7e-1a4b-4c8d-9e0f-5a6b7c8d9e01';

/** An answer instead of the route's (HubSpot's error body for the status by default), a hang or a reset. */
export type HubSpotFault = InjectedFault;

export interface HubSpotFakeOptions {
  /** private-app tokens accepted, default [HUBSPOT_FAKE_PRIVATE_APP_TOKEN] */
  privateAppTokens?: string[];
  /** OAuth access tokens accepted besides those the token endpoint issues (never expire), default none */
  oauthTokens?: string[];
  /** the OAuth app the token endpoint knows, and the lifetime of the access tokens it issues */
  oauth?: HubSpotOAuthOptions;
  /** `limit` of a list or search that names none (HubSpot: 10) */
  pageSize?: number;
  /** seeded records per object type */
  counts?: Partial<SeedCounts>;
  /** enforce a per-second limit (policy SECONDLY; HubSpot: 10 to 19 by tier); default off */
  rateLimitPerSecond?: number;
  /** enforce HubSpot's CRM search limit (5 per second); default off */
  searchRateLimitPerSecond?: number;
  /** enforce a daily limit (policy DAILY); default off, reported as 250000 */
  dailyLimit?: number;
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
  /** the clock writes stamp records with; default the real one */
  now?: () => Date;
}

export interface HubSpotFake {
  /** the API root ces uses as base URL override: the origin, as https://api.hubapi.com */
  url: string;
  origin: string;
  /** the token endpoint's state: issue grants or codes, expire or revoke tokens, `issued`/`log` */
  oauth: TokenEndpoint;
  requests: RecordedRequest[];
  /** requests no route matched (answered 404/405 AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  failNext(fault: HubSpotFault): void;
  tokenRequests(): RecordedRequest[];
  data: Dataset;
  close(): Promise<void>;
}

export async function startHubSpotFake(opts: HubSpotFakeOptions = {}): Promise<HubSpotFake> {
  const oauth = hubspotTokenEndpoint(opts.oauth);
  const privateApp = new Set(opts.privateAppTokens ?? [HUBSPOT_FAKE_PRIVATE_APP_TOKEN]);
  const staticOauth = new Set(opts.oauthTokens ?? []);
  const limiter = new RateLimiter({
    ...(opts.rateLimitPerSecond === undefined ? {} : { perSecond: opts.rateLimitPerSecond }),
    ...(opts.searchRateLimitPerSecond === undefined
      ? {}
      : { searchPerSecond: opts.searchRateLimitPerSecond }),
    ...(opts.dailyLimit === undefined ? {} : { daily: opts.dailyLimit }),
  });
  const data = new Dataset({ ...DEFAULT_COUNTS, ...opts.counts });
  // Known once the kit listens; `paging.next.link` reads it.
  const site = { origin: '' };
  const routes = new Router<HubSpotCtx>(
    createRoutes(data, { pageSize: opts.pageSize ?? 10, now: opts.now ?? (() => new Date()) }),
    { trailingSlash: true },
  );

  const authOf = (header: string | undefined): Auth | Answer => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const token = match?.[1];
    if (token === undefined) return fail(401, MESSAGES.noCredentials, 'INVALID_AUTHENTICATION');
    if (privateApp.has(token)) return 'private-app';
    if (staticOauth.has(token)) return 'oauth';
    const issued = oauth.check(token);
    if (issued?.state === 'valid') return 'oauth';
    if (issued?.state === 'expired') {
      const minutes = Math.floor(issued.agoMs / 60_000);
      return fail(
        401,
        `The OAuth token used to make this call expired ${minutes} minute(s) ago.`,
        'EXPIRED_AUTHENTICATION',
      );
    }
    return fail(401, MESSAGES.noCredentials, 'INVALID_AUTHENTICATION');
  };
  const notSupported = (recorded: RecordedRequest) =>
    fail(405, `HTTP ${recorded.method} is not supported by this resource`);

  const fake = await startFake<HubSpotCtx>({
    definition: loadDefinition('hubspot'),
    routes,
    token: oauth,
    authenticate: (recorded) => {
      const auth = authOf(recorded.headers.authorization);
      return typeof auth === 'string' ? { auth, origin: site.origin } : { refuse: auth };
    },
    budget: (recorded, ctx) => {
      const { pathname } = new URL(recorded.path, 'http://fake.invalid');
      const isSearch = recorded.method === 'POST' && pathname.endsWith('/search');
      const limit = limiter.take(isSearch ? 'search' : 'api', ctx.auth);
      return limit.refused === undefined
        ? { headers: limit.headers }
        : { refuse: { status: 429, headers: limit.headers, body: rateLimitBody(limit.refused) } };
    },
    errors: {
      body: defaultErrorBody,
      notFound: () => fail(404, MESSAGES.notFound),
      methodNotAllowed: notSupported,
      fault: (fault: Fault) => {
        const answer = faultAnswer(fault, defaultErrorBody);
        return fault.status === 429
          ? { ...answer, headers: { ...exhaustedHeaders(), ...answer.headers } }
          : answer;
      },
    },
    send,
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  site.origin = fake.origin;

  return {
    url: fake.origin,
    origin: fake.origin,
    oauth,
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    close: fake.close,
  };
}
