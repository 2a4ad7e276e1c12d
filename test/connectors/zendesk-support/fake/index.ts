// A wire-faithful fake of the Zendesk Support REST API (https://{subdomain}.zendesk.com/api/v2) on a real
// node:http server. `url` is the API root (…/api/v2), the value for CES_UPSTREAM_OVERRIDES["zendesk-support"].
// It stands on the kit (test/connectors/kit), which answers in its order: an injected fault, then the
// credential (a present but unknown one → 401 Couldn't authenticate you; none → 401 too, except GET
// /users/me, which answers the anonymous user), then a route (routes.ts, more-routes.ts over the dataset;
// files.ts for the hosts behind url properties, which take no credential), else 404 InvalidEndpoint, recorded
// in `unhandled`. Every answer but the file hosts' carries the account rate-limit headers (wire.ts); they
// count but never refuse (tests inject 429s with failNext). Dataset: see dataset.ts; every accepted
// credential (API token or OAuth token) authenticates as the admin, Avery Admin.
import { loadDefinition } from '../../kit/definition.ts';
import { type Answer, type Fault, type RecordedRequest, sendJson, startFake } from '../../kit/index.ts';
import { Router } from '../../kit/router.ts';
import { ADMIN_ID, Dataset } from './dataset.ts';
import { fileRoutes } from './files.ts';
import type { RenderContext } from './render.ts';
import { createRoutes } from './routes.ts';
import {
  type Auth,
  apiHeaders,
  errorBody,
  invalidEndpoint,
  parseAuth,
  RateLimiter,
  UNAUTHENTICATED_BODY,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

/** A fault: `match` is a path prefix such as /api/v2/tickets; a string body is text/html unless headers say otherwise. */
export type ZendeskFault = Fault;

export interface ZendeskFakeOptions {
  /** the agent's email for API-token auth (default ZENDESK_FAKE_EMAIL) */
  email?: string;
  /** the API token (default ZENDESK_FAKE_API_TOKEN) */
  apiToken?: string;
  /** accepted OAuth access tokens (default [ZENDESK_FAKE_OAUTH_TOKEN]) */
  oauthTokens?: string[];
  /** the account subdomain, used where Zendesk names it in bodies (recipient addresses) */
  subdomain?: string;
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface ZendeskFake {
  /** the API root, e.g. http://127.0.0.1:54321/api/v2 (like https://acme.zendesk.com/api/v2) */
  url: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched (answered 404 Zendesk-style AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: ZendeskFault): void;
  /** add `count` generated tickets after the last one */
  seedTickets(count: number): void;
  close(): Promise<void>;
}

export const ZENDESK_FAKE_EMAIL = 'avery.admin@ces-demo.example';
export const ZENDESK_FAKE_API_TOKEN = 'zdFakeApiToken0000000000000000000000001';
export const ZENDESK_FAKE_OAUTH_TOKEN = 'zdFakeOAuthAccessToken00000000000000000000000000001';
export const ZENDESK_FAKE_SUBDOMAIN = 'ces-demo';

const definition = loadDefinition('zendesk-support');
const API = '/api/v2/';

/** The path as the routes see it: Zendesk takes `.json` on every API endpoint and drops it. */
const apiPath = (path: string) => (path.startsWith(API) ? path.replace(/\.json(?=\?|$)/, '') : path);

/** Zendesk's ids are numbers: an API path with another segment where an id goes is no endpoint. */
class ZendeskRouter<Ctx> extends Router<Ctx> {
  override handle(recorded: RecordedRequest, ctx: Ctx): Answer | undefined {
    const path = apiPath(recorded.path);
    const found = this.match(recorded.method, new URL(path, 'http://fake.invalid').pathname);
    if (path.startsWith(API) && Object.values(found?.params ?? {}).some((p) => !/^\d+$/.test(p)))
      return undefined;
    return super.handle({ ...recorded, path }, ctx);
  }
}

export async function startZendeskFake(opts: ZendeskFakeOptions = {}): Promise<ZendeskFake> {
  const accepted = {
    email: opts.email ?? ZENDESK_FAKE_EMAIL,
    apiToken: opts.apiToken ?? ZENDESK_FAKE_API_TOKEN,
    oauthTokens: new Set(opts.oauthTokens ?? [ZENDESK_FAKE_OAUTH_TOKEN]),
  };
  const limiter = new RateLimiter();
  const data = new Dataset(accepted.email);
  const ctx: RenderContext = { origin: '', subdomain: opts.subdomain ?? ZENDESK_FAKE_SUBDOMAIN };
  // The answers of the file hosts, which carry none of the API's headers.
  const bare = new WeakSet<Answer>();
  const routes = [
    ...createRoutes(data, ctx, ADMIN_ID),
    ...fileRoutes(
      data,
      () => ctx.origin,
      (answer) => {
        bare.add(answer);
        return answer;
      },
    ),
  ];
  const unauthenticated: Answer = {
    status: 401,
    headers: { 'www-authenticate': 'Basic realm="Web Password"' },
    body: UNAUTHENTICATED_BODY,
  };
  const fake = await startFake<Auth>({
    definition,
    routes: new ZendeskRouter(routes),
    // The file hosts take no credential, and a path outside the API is a 404 whoever asks.
    authenticate: (recorded) => {
      const auth = parseAuth(recorded.headers, accepted);
      const path = apiPath(recorded.path).split('?')[0] as string;
      if (!path.startsWith(API) || auth.kind === 'api_token' || auth.kind === 'oauth') return auth;
      const self = auth.kind === 'anonymous' && recorded.method === 'GET' && path === '/api/v2/users/me';
      return self ? auth : { refuse: unauthenticated };
    },
    errors: { body: errorBody, notFound: () => ({ status: 404, body: invalidEndpoint() }) },
    // Every answer but the file hosts' carries the account rate-limit headers, counted per credential.
    send: (res, answer) => {
      if (bare.has(answer)) return sendJson(res, answer);
      const html: Record<string, string> =
        typeof answer.body === 'string' ? { 'content-type': 'text/html; charset=utf-8' } : {};
      const rate = limiter.take(parseAuth(res.req.headers, accepted));
      sendJson(res, { ...answer, headers: { ...apiHeaders(rate), ...html, ...answer.headers } });
    },
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  ctx.origin = fake.origin;

  return {
    url: `${fake.origin}/api/v2`,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    seedTickets(count) {
      data.seedTickets(count);
    },
    close: () => fake.close(),
  };
}
