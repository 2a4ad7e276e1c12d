// A wire-faithful fake of the Zendesk Support REST API (https://{subdomain}.zendesk.com/api/v2) on a real
// node:http server. `url` is the API root (…/api/v2), the value for CES_UPSTREAM_OVERRIDES["zendesk-support"].
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)             → the fault
//   2. /attachments/token/{token}/ (content_url, no auth needed)        → 302 to the storage path (files.ts)
//   3. /_zdusercontent/attachment/… (the storage host, signed URL)       → the bytes (files.ts)
//      /hc/article_attachments/{id}/{name} (a Help Center content_url)   → the bytes (attachments of
//      published articles are public, so no credential is needed)
//   4. a path outside /api/v2                                            → 404 InvalidEndpoint, recorded in `unhandled`
//   5. a present but unknown credential                                 → 401 Couldn't authenticate you
//   6. no credential: GET /users/me answers the anonymous user, anything else 401
//   7. a route over the seeded dataset (routes.ts, writes.ts)            → its answer
//   8. anything else                                                    → 404 InvalidEndpoint, recorded in `unhandled`
// Every /api/v2 answer carries the account rate-limit headers (wire.ts). Dataset: see dataset.ts; every
// accepted credential (API token or OAuth token) authenticates as the admin, Avery Admin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import { ADMIN_ID, Dataset } from './dataset.ts';
import { contentRoute, STORAGE_PREFIX, serveBytes, storageRoute } from './files.ts';
import { articleFile } from './more-routes.ts';
import { anonymousUser } from './render.ts';
import { createRoutes } from './routes.ts';
import {
  type Auth,
  apiHeaders,
  invalidEndpoint,
  parseAuth,
  RateLimiter,
  recordInvalid,
  recordNotFound,
  send,
  UNAUTHENTICATED_BODY,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';

export interface ZendeskFault {
  status: number;
  headers?: Record<string, string>;
  /** object → JSON, string → raw (text/html unless headers say otherwise); default: Zendesk's body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
  /** optional path prefix the fault applies to, e.g. /api/v2/tickets */
  match?: string;
}

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

export async function startZendeskFake(opts: ZendeskFakeOptions = {}): Promise<ZendeskFake> {
  const accepted = {
    email: opts.email ?? ZENDESK_FAKE_EMAIL,
    apiToken: opts.apiToken ?? ZENDESK_FAKE_API_TOKEN,
    oauthTokens: new Set(opts.oauthTokens ?? [ZENDESK_FAKE_OAUTH_TOKEN]),
  };
  const subdomain = opts.subdomain ?? ZENDESK_FAKE_SUBDOMAIN;
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<ZendeskFault & { times: number }> = [];
  const limiter = new RateLimiter();
  const data = new Dataset(accepted.email);
  let origin = '';
  let routes: ReturnType<typeof createRoutes> | undefined;

  const takeFault = (path: string): ZendeskFault | undefined => {
    const index = faults.findIndex((f) => f.match === undefined || path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest): void => {
    if (routes === undefined) throw new Error('zendesk fake used before it listened');
    const url = new URL(recorded.path, 'http://fake.invalid');
    const auth = parseAuth(req.headers, accepted);

    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      const { headers, body } = faultResponse(fault);
      send(res, fault.status, { ...apiHeaders(limiter.take(auth)), ...headers }, body);
      return;
    }
    const article = articleFile(url.pathname);
    const file =
      (article === undefined
        ? undefined
        : article === null
          ? {
              status: 404,
              headers: { 'content-type': 'text/html; charset=utf-8' },
              body: '<html><body>Not found</body></html>',
            }
          : serveBytes(article.bytes, article.contentType, article.fileName, header(req.headers.range))) ??
      contentRoute(origin, url.pathname, data) ??
      (url.pathname.startsWith(`${STORAGE_PREFIX}/`)
        ? storageRoute(url.pathname, url.searchParams, header(req.headers.range), data)
        : undefined);
    if (file !== undefined) {
      if (recorded.method !== 'GET') {
        notFound(res, recorded, auth);
        return;
      }
      send(res, file.status, file.headers, file.body);
      return;
    }
    if (!url.pathname.startsWith('/api/v2/')) {
      notFound(res, recorded, auth);
      return;
    }
    const pathname = url.pathname.replace(/\.json$/, '');
    const headers = apiHeaders(limiter.take(auth));
    const unauthenticated = () =>
      send(res, 401, { ...headers, 'www-authenticate': 'Basic realm="Web Password"' }, UNAUTHENTICATED_BODY);
    if (auth.kind === 'bad') {
      unauthenticated();
      return;
    }
    if (auth.kind === 'anonymous') {
      if (recorded.method === 'GET' && pathname === '/api/v2/users/me') {
        send(res, 200, headers, { user: anonymousUser() });
        return;
      }
      unauthenticated();
      return;
    }
    const result = routes({
      method: recorded.method,
      pathname,
      query: url.searchParams,
      auth,
      body: recorded.body,
      contentType: header(req.headers['content-type']),
    });
    if (result === undefined) {
      notFound(res, recorded, auth);
      return;
    }
    send(res, result.status, { ...headers, ...(result.headers ?? {}) }, result.body);
  };

  const notFound = (res: ServerResponse, recorded: RecordedRequest, auth: Auth): void => {
    unhandled.push(recorded);
    send(res, 404, apiHeaders(limiter.take(auth)), invalidEndpoint());
  };

  const server = await startRecordingServer(
    handle,
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  origin = server.origin;
  routes = createRoutes(data, { origin, subdomain }, ADMIN_ID);

  return {
    url: `${origin}/api/v2`,
    requests,
    unhandled,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    seedTickets(count) {
      data.seedTickets(count);
    },
    close: () => server.close(),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Zendesk's body for a status when a fault names none. */
function faultResponse(fault: ZendeskFault): { headers: Record<string, string>; body: unknown } {
  const headers = Object.fromEntries(
    Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const text = (body: string) => {
    headers['content-type'] ??= 'text/html; charset=utf-8';
    return { headers, body };
  };
  if (typeof fault.body === 'string') return text(fault.body);
  if (fault.body !== undefined) return { headers, body: fault.body };
  switch (fault.status) {
    case 401:
      return { headers, body: UNAUTHENTICATED_BODY };
    case 403:
      return {
        headers,
        body: {
          error: 'Forbidden',
          description:
            'You do not have access to this page. Please contact the account owner of this help desk for further help.',
        },
      };
    case 404:
      return { headers, body: recordNotFound() };
    case 422:
      return {
        headers,
        body: recordInvalid({ base: [{ description: 'Invalid value', error: 'InvalidValue' }] }),
      };
    case 429:
      // "Best practices for avoiding rate limiting": a 429 is text/html; tests set its Retry-After.
      return text('Too Many Requests');
    default:
      return fault.status >= 500
        ? { headers, body: { error: 'InternalServerError' } }
        : { headers, body: { error: 'Error' } };
  }
}
