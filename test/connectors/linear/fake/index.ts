// A wire-faithful fake of Linear's GraphQL API (https://api.linear.app/graphql) on a real node:http server,
// executing queries against Linear's published SDL (reference/providers/linear.graphql; graphql.ts) and following
// Linear's developer pages for auth, errors, paging, filtering and rate limits (wire.ts, lists.ts).
// The API root ces uses as base URL is the origin: `url` === `origin`.
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)           → the fault (default body: Linear's error
//                                                                       body for the status, wire.ts)
//   2. POST /oauth/token                                              → Linear's token endpoint (oauth.ts, kit/token.ts)
//   3. any other path or method than POST /graphql                    → 404 / 405 {errors}, recorded in `unhandled`
//   4. no or unknown credentials                                      → 401 {errors: [{message: "Authentication
//                                                                       required, not authenticated", extensions:
//                                                                       {type, code: AUTHENTICATION_ERROR, …}}]}
//   5. over the configured per-second limit (off by default)          → 400 {errors: [{… code: RATELIMITED}]} +
//                                                                       X-RateLimit-Requests-* headers
//   6. POST /graphql                                                  → graphql.ts (its header lists every
//                                                                       resolved Query/Mutation field)
// Routes and the reference operation each follows (SDL field; the catalog's entity-action beside it):
//   POST /graphql  Query.issues / Query.issue / Mutation.issueCreate / Mutation.issueUpdate     issues.*
//                  Query.comments (filter {issue: {id: {eq}}}) / Query.comment / Mutation.commentCreate /
//                  Mutation.commentUpdate                                                      comments.*
//                  Query.projects / Query.project / Mutation.projectCreate / Mutation.projectUpdate projects.*
//                  Query.teams / Query.team                                                    teams.*
//                  Query.users / Query.user                                                    users.*
//                  Query.workflowStates                                                        workflow_states.list
//                  Query.viewer, Query.organization
//   POST /oauth/token  Linear's token endpoint: grants refresh_token (rotating) and client_credentials
// Credentials: the personal API key sent raw in `Authorization` (LINEAR_FAKE_API_KEY); `Bearer` OAuth access
// tokens of `oauthTokens` (never expire) or issued by the token endpoint (until they expire). The optional
// `x-apollo-operation-name` header is accepted (it also satisfies the CSRF guard) and recorded with the request
// (`operationNames()`).
// Every /graphql answer carries Linear's X-RateLimit-Requests-* / X-RateLimit-Complexity-* headers and
// X-Complexity.
// Dataset (dataset.ts): 3 teams (ENG, DES, OPS) with 6 workflow states each, `users` users (default 32, 2 of
// them deactivated) plus an app user, `projects` projects (default 14), `issues` issues (default 90, one every
// 7 hours from 2024-01-01T09:00Z, updatedAt spread over the following months) and 0-3 comments per issue.
// Lists page by `first` (default `pageSize`, 50 as Linear; at most 250).

import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, startFake } from '../../kit/index.ts';
import { type RecordedRequest, send } from '../../kit/server.ts';
import type { TokenEndpoint } from '../../kit/token.ts';
import { Dataset } from './dataset.ts';
import { createGraphql } from './graphql.ts';
import { actorOf, type LinearOAuthOptions, linearTokenEndpoint } from './oauth.ts';
import {
  AUTH_ERROR,
  type Auth,
  createLimits,
  defaultFaultBody,
  errorBody,
  LinearApiError,
  parseAuth,
  RATELIMIT_ERROR,
  rateLimitHeaders,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export { uuid } from './dataset.ts';
export { LINEAR_SDL_PATH } from './graphql.ts';
export {
  LINEAR_FAKE_CLIENT_ID,
  LINEAR_FAKE_CLIENT_SECRET,
  LINEAR_FAKE_SCOPES,
  LINEAR_TOKEN_PATH,
  type LinearGrant,
} from './oauth.ts';

/** The accepted personal API key (sent raw in `Authorization`). */
export const LINEAR_FAKE_API_KEY = 'lin_api_cesfake0000000000000000000000000000000001';

/** A fault: `match` is a path prefix such as `/graphql` (default every path); default body Linear's. */
export type LinearFault = Fault;

export interface LinearFakeOptions {
  /** the accepted personal API key, default LINEAR_FAKE_API_KEY */
  apiKey?: string;
  /** accepted OAuth bearer tokens besides those the token endpoint issues (never expire), default none */
  oauthTokens?: string[];
  /** the OAuth app the token endpoint knows, and the lifetime of the access tokens it issues */
  oauth?: LinearOAuthOptions;
  /** records per page when a list names neither `first` nor `last`; default 50 as Linear */
  pageSize?: number;
  /** seeded users (besides the app user), default 32; issues, default 90; projects, default 14 */
  users?: number;
  issues?: number;
  projects?: number;
  /** refuse requests beyond this many per second with Linear's RATELIMITED answer; default off */
  rateLimitPerSecond?: number;
  /** the HTTP status of a RATELIMITED answer; default 400 (Linear answers rate limits as GraphQL errors) */
  rateLimitStatus?: number;
  /** the HTTP status of an authentication failure; default 401 */
  authErrorStatus?: number;
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface LinearFake {
  /** the API root ces uses as base URL (the origin; the route is POST /graphql) */
  url: string;
  origin: string;
  /** the OAuth token endpoint: mint grants, expire or revoke tokens, read `issued` / `log` */
  oauth: TokenEndpoint;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched, or that used something the fake does not implement (answered AND recorded) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: LinearFault): void;
  /** the `x-apollo-operation-name` header of each /graphql request (undefined where absent) */
  operationNames(): Array<string | undefined>;
  /** requests to the token endpoint */
  tokenRequests(): RecordedRequest[];
  /** the seeded data, for assertions (writes change it) */
  data: Dataset;
  close(): Promise<void>;
}

const definition = loadDefinition('linear');
const GRAPHQL = '/graphql';

export async function startLinearFake(opts: LinearFakeOptions = {}): Promise<LinearFake> {
  const oauth = linearTokenEndpoint(opts.oauth);
  const creds = {
    apiKey: opts.apiKey ?? LINEAR_FAKE_API_KEY,
    oauthTokens: new Set(opts.oauthTokens ?? []),
    issued: (token: string) => actorOf(oauth, token),
  };
  const limits = createLimits(opts.rateLimitPerSecond);
  const data = new Dataset({
    users: opts.users ?? 32,
    issues: opts.issues ?? 90,
    projects: opts.projects ?? 14,
  });
  const graphql = createGraphql(data, { pageSize: opts.pageSize ?? 50, limits });

  const fake = await startFake<Auth>({
    definition,
    token: oauth,
    // Linear answers a path or method it does not serve whoever asks.
    routeFirst: true,
    routes: [
      {
        method: 'POST',
        path: GRAPHQL,
        // The Query / Mutation fields graphql.ts resolves, by their SDL names (the header above lists them).
        operation: 'POST /graphql (the SDL fields graphql.ts resolves)',
        handle: (req, auth) => {
          const viewer = auth.kind === 'oauth' && auth.actor === 'app' ? data.appUser : data.viewer;
          const answer = graphql({ headers: req.recorded.headers, body: req.recorded.body, viewer });
          return { ...answer, ...(answer.notImplemented === undefined ? {} : { unhandled: true }) };
        },
      },
    ],
    authenticate: (recorded) => {
      const auth = parseAuth(recorded.headers, creds);
      return auth.kind === 'none' || auth.kind === 'bad'
        ? { refuse: { status: opts.authErrorStatus ?? 401, body: errorBody(AUTH_ERROR) } }
        : auth;
    },
    // Linear's own request budget (wire.ts): it meters every request for the X-RateLimit-* headers and
    // refuses only when the test set `rateLimitPerSecond`.
    before: () =>
      limits.requests.take()
        ? undefined
        : {
            status: opts.rateLimitStatus ?? 400,
            headers: rateLimitHeaders(limits),
            body: errorBody(RATELIMIT_ERROR),
          },
    errors: {
      body: defaultFaultBody,
      notFound: (recorded) => {
        const { pathname } = new URL(recorded.path, 'http://fake.invalid');
        return {
          status: 404,
          body: errorBody(new LinearApiError('not_found', `Cannot ${recorded.method} ${pathname}`)),
        };
      },
      methodNotAllowed: () => ({
        status: 405,
        headers: { allow: 'POST' },
        body: errorBody(
          new LinearApiError('graphql', 'Only POST requests are served.', undefined, 'BAD_REQUEST'),
        ),
      }),
    },
    send: (res, out) =>
      send(
        res,
        out.status,
        { 'content-type': 'application/json; charset=utf-8', ...(out.headers ?? {}) },
        out.body === undefined ? undefined : JSON.stringify(out.body),
      ),
    responseDelayMs: opts.responseDelayMs ?? 0,
  });

  const isGraphql = (r: RecordedRequest) => new URL(r.path, 'http://fake.invalid').pathname === GRAPHQL;
  return {
    url: fake.origin,
    origin: fake.origin,
    oauth,
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    operationNames: () =>
      fake.requests.filter(isGraphql).map((r) => {
        const v = r.headers['x-apollo-operation-name'];
        return Array.isArray(v) ? v[0] : v;
      }),
    tokenRequests: fake.tokenRequests,
    close: fake.close,
  };
}
