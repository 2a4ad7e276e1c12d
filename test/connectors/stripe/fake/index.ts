// A wire-faithful fake of the Stripe API (https://api.stripe.com, paths /v1/...) on a real node:http server,
// following Stripe's OpenAPI description (reference/providers/stripe.yaml, API version 2023-08-16) and sample
// objects (reference/providers/stripe-fixtures.json); wire conventions in wire.ts, paging/expansion in paging.ts,
// the search language in search.ts.
// It stands on the kit (test/connectors/kit), which answers in its order:
//   1. fault injected with failNext (matching path prefix)             → the fault (Stripe's body for its status)
//   2. no key / unknown key (Bearer, or Basic with the key as user)    → 401 {error: {type: invalid_request_error, message}}
//   3. over `rateLimitPerSecond` (off by default)                     → 429 {error: {code: rate_limit}} + Stripe-Rate-Limited-Reason
//   4. a POST/DELETE body that isn't application/x-www-form-urlencoded → 400 invalid_request_error
//   5. parameters (query, and the form body) decoded from bracket notation; malformed → 400
//   6. no route for method + path                                      → 404 "Unrecognized request URL", recorded in `unhandled`
//   7. a write with the read-only restricted key                       → 403
//   8. POST with Idempotency-Key: a replay answers the first result (Idempotent-Replayed: true); the same key with
//      other parameters or another endpoint → 400 idempotency_error. 2xx and 402 results are kept, as Stripe keeps
//      the results of requests that began executing (validation refusals are not kept).
//   9. the route (routes-*.ts, each naming its reference operationId); refusals are Stripe error bodies (404
//      resource_missing, 400 parameter_missing / parameter_unknown / parameter_invalid_integer, 402 card_error, ...)
// Lists page by keyset (`limit` 1–100, default 10, `starting_after` / `ending_before`), newest first; searches by
// an opaque `page` token. Dataset: dataset.ts (30 of each resource by default, `created` 3 days apart from
// 2024-01-01). No OAuth: Stripe API keys are static.
import type { IncomingMessage } from 'node:http';
import { loadDefinition } from '../../kit/definition.ts';
import {
  type Fault,
  type Route as KitRoute,
  perSecond,
  type RecordedRequest,
  type RouteRequest,
  startFake,
} from '../../kit/index.ts';
import { Dataset } from './dataset.ts';
import type { Route } from './router.ts';
import { catalogRoutes } from './routes-catalog.ts';
import { checkoutRoutes } from './routes-checkout.ts';
import { invoiceRoutes } from './routes-invoices.ts';
import { paymentRoutes } from './routes-payments.ts';
import { readRoutes } from './routes-read.ts';
import { subscriptionRoutes } from './routes-subscriptions.ts';
import {
  type Answer,
  badKey,
  canonical,
  defaultError,
  invalid,
  noKey,
  type Params,
  parseAuth,
  parseBrackets,
  permissionDenied,
  Refusal,
  rateLimited,
  requestId,
  STRIPE_API_VERSION,
  send,
  stripeError,
  unrecognizedUrl,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';
export { Dataset } from './dataset.ts';
export type { Obj } from './records.ts';

/** The accepted secret key (full access). */
export const STRIPE_FAKE_SECRET_KEY =
  'sk_test_51CesFakeSecretKey0000000000000000000000000000000000000000000000000000';
/** A restricted key with full access. */
export const STRIPE_FAKE_RESTRICTED_KEY =
  'rk_test_51CesFakeRestrictedKey000000000000000000000000000000000000000000000000';
/** A restricted key with read permissions only: writes answer 403. */
export const STRIPE_FAKE_READ_ONLY_KEY =
  'rk_test_51CesFakeReadOnlyKey0000000000000000000000000000000000000000000000000';

/** A fault: `match` is a path prefix as received, e.g. `/v1/customers`; default body: Stripe's for the status. */
export type StripeFault = Fault & { match: string };

export interface StripeFakeOptions {
  /** full-access keys accepted; default [STRIPE_FAKE_SECRET_KEY, STRIPE_FAKE_RESTRICTED_KEY] */
  keys?: string[];
  /** read-only restricted keys; default [STRIPE_FAKE_READ_ONLY_KEY] */
  readOnlyKeys?: string[];
  /** seeded objects of each resource, default 30 (3 pages at Stripe's default limit of 10) */
  records?: number;
  /** answer 429 (Stripe's rate_limit) past this many requests per second; default off */
  rateLimitPerSecond?: number;
  /** answer every request this much later (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface StripeFake {
  /** the API root: ces's base URL override (paths are /v1/...) */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: StripeFault): void;
  data: Dataset;
  close(): Promise<void>;
}

interface Kept {
  endpoint: string;
  params: string;
  answer: Answer;
  requestId: string;
}

/** Who a request acts as, and its parameters (query and form body), decoded once before its route. */
interface Caller {
  key: string;
  readOnly: boolean;
  params: Params;
}

const definition = loadDefinition('stripe');

export async function startStripeFake(opts: StripeFakeOptions = {}): Promise<StripeFake> {
  const keys = {
    full: new Set(opts.keys ?? [STRIPE_FAKE_SECRET_KEY, STRIPE_FAKE_RESTRICTED_KEY]),
    readOnly: new Set(opts.readOnlyKeys ?? [STRIPE_FAKE_READ_ONLY_KEY]),
  };
  const data = new Dataset(opts.records ?? 30);
  const kept = new Map<string, Kept>();

  /** Steps 7 and 8 around the route itself. */
  const dispatch = (route: Route, req: RouteRequest, caller: Caller): Answer => {
    const { method, pathname } = req;
    const { key, params } = caller;
    if (caller.readOnly && method !== 'GET') return permissionDenied(key, pathname.split('/')[2] ?? 'all');
    const reqId = requestId();
    const idemKey = method === 'POST' ? headerOf(req.recorded.headers, 'idempotency-key') : undefined;
    const endpoint = `${method} ${pathname}`;
    if (idemKey !== undefined) {
      if (idemKey.length > 255)
        return invalid('Idempotency keys may be at most 255 characters long.', 'Idempotency-Key');
      const prior = kept.get(`${key}\u0000${idemKey}`);
      if (prior !== undefined) {
        if (prior.endpoint !== endpoint)
          return stripeError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${prior.endpoint}' vs '${endpoint}'). Try using a key other than '${idemKey}' if you meant to execute a different request.`,
          });
        if (prior.params !== canonical(params))
          return stripeError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
          });
        return {
          ...prior.answer,
          headers: {
            ...prior.answer.headers,
            'request-id': reqId,
            'idempotency-key': idemKey,
            'idempotent-replayed': 'true',
            'original-request': prior.requestId,
          },
        };
      }
    }
    const answer = run(route, { data, params, ids: Object.values(req.params), key });
    if (idemKey === undefined) return { ...answer, headers: { ...answer.headers, 'request-id': reqId } };
    if ((answer.status >= 200 && answer.status < 300) || answer.status === 402)
      kept.set(`${key}\u0000${idemKey}`, { endpoint, params: canonical(params), answer, requestId: reqId });
    return {
      ...answer,
      headers: {
        ...answer.headers,
        'request-id': reqId,
        'idempotency-key': idemKey,
        'original-request': reqId,
      },
    };
  };
  const routes = [
    ...readRoutes(),
    ...catalogRoutes(),
    ...invoiceRoutes(),
    ...subscriptionRoutes(),
    ...paymentRoutes(),
    ...checkoutRoutes(),
  ].map(
    (r): KitRoute<Caller> => ({
      method: r.method,
      path: r.path,
      operation: r.op,
      handle: (req, caller) => dispatch(r, req, caller),
    }),
  );

  const fake = await startFake<Caller>({
    definition,
    routes,
    authenticate: (recorded) => {
      const auth = parseAuth(recorded.headers, keys);
      if (auth.kind === 'none') return { refuse: noKey() };
      if (auth.kind === 'bad') return { refuse: badKey(auth.key) };
      return { key: auth.key, readOnly: auth.readOnly, params: {} };
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    errors: {
      body: (status) => defaultError(status, 'GET', '/').body,
      // Stripe's 404 names the object the path asks for, its 429 carries Stripe-Rate-Limited-Reason.
      fault: (fault, recorded) => {
        const own = defaultError(fault.status, recorded.method, recorded.path);
        const headers = Object.fromEntries(
          Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
        );
        return {
          status: fault.status,
          headers: { ...own.headers, ...headers },
          body: fault.body ?? own.body,
        };
      },
      rateLimited,
      notFound: (recorded) =>
        unrecognizedUrl(recorded.method, new URL(recorded.path, 'http://x.invalid').pathname),
    },
    before: (recorded, caller) => {
      try {
        caller.params = params(recorded);
        return undefined;
      } catch (error) {
        if (error instanceof Refusal) return error.answer;
        throw error;
      }
    },
    send: (res, answer) =>
      send(
        res,
        answer,
        headerOf(res.req.headers, 'stripe-version') ?? STRIPE_API_VERSION,
        answer.headers?.['request-id'] ?? requestId(),
      ),
    responseDelayMs: opts.responseDelayMs ?? 0,
  });

  return {
    url: fake.origin,
    origin: fake.origin,
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    close: () => fake.close(),
  };
}

/** Steps 4 and 5: the query's parameters and a write's form body, decoded from bracket notation. */
function params(recorded: RecordedRequest): Params {
  const url = new URL(recorded.path, 'http://fake.invalid');
  const query = parseBrackets(url.searchParams);
  if ((recorded.method !== 'POST' && recorded.method !== 'DELETE') || recorded.body.trim() === '')
    return query;
  const type = String(recorded.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new Refusal(
      invalid(
        'Invalid request (check that your POST content type is application/x-www-form-urlencoded). If you have any questions, we can help at https://support.stripe.com/.',
      ),
    );
  return { ...query, ...parseBrackets(new URLSearchParams(recorded.body)) };
}

/** Runs a route; a refusal thrown inside it is its answer. */
function run(route: Route, ctx: Parameters<Route['handler']>[0]): Answer {
  try {
    return route.handler(ctx);
  } catch (error) {
    if (error instanceof Refusal) return error.answer;
    throw error;
  }
}

function headerOf(headers: IncomingMessage['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
