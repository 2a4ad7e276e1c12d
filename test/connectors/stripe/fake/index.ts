// A wire-faithful fake of the Stripe API (https://api.stripe.com, paths /v1/...) on a real node:http server,
// following Stripe's OpenAPI description (reference/providers/stripe.yaml, API version 2023-08-16) and sample
// objects (reference/providers/stripe-fixtures.json); wire conventions in wire.ts, paging/expansion in paging.ts,
// the search language in search.ts.
// Dispatch order for every request:
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
//   9. the route (router.ts files below); refusals are Stripe error bodies (404 resource_missing, 400
//      parameter_missing / parameter_unknown / parameter_invalid_integer, 402 card_error, ...)
// Routes (reference operationId):
//   GET    /v1/account                          GetAccount
//   GET    /v1/balance                          GetBalance
//   GET    /v1/balance_transactions[/:id]       GetBalanceTransactions / GetBalanceTransactionsId (also /v1/balance/history)
//   GET    /v1/charges, /search, /:id           GetCharges / GetChargesSearch / GetChargesCharge
//   POST   /v1/checkout/sessions, GET /:id      PostCheckoutSessions / GetCheckoutSessionsSession
//   GET    /v1/customers, /search, /:id         GetCustomers / GetCustomersSearch / GetCustomersCustomer
//   POST   /v1/customers, /:id; DELETE /:id     PostCustomers / PostCustomersCustomer / DeleteCustomersCustomer
//   GET    /v1/disputes, /:id                   GetDisputes / GetDisputesDispute
//   GET    /v1/invoices, /search, /:id          GetInvoices / GetInvoicesSearch / GetInvoicesInvoice
//   POST   /v1/invoices, /:id/finalize, /:id/send  PostInvoices / PostInvoicesInvoiceFinalize / PostInvoicesInvoiceSend
//   GET    /v1/payment_intents, /search, /:id   GetPaymentIntents / GetPaymentIntentsSearch / GetPaymentIntentsIntent
//   POST   /v1/payment_intents, /:id, /:id/cancel, /:id/confirm
//          PostPaymentIntents / PostPaymentIntentsIntent / PostPaymentIntentsIntentCancel / PostPaymentIntentsIntentConfirm
//   POST   /v1/payment_methods/:id/attach       PostPaymentMethodsPaymentMethodAttach
//   GET    /v1/payouts, /:id                    GetPayouts / GetPayoutsPayout
//   GET    /v1/prices, /:id; POST /v1/prices    GetPrices / GetPricesPrice / PostPrices
//   GET    /v1/products, /search, /:id          GetProducts / GetProductsSearch / GetProductsId
//   POST   /v1/products, /:id; DELETE /:id      PostProducts / PostProductsId / DeleteProductsId
//   GET    /v1/refunds, /:id; POST /v1/refunds  GetRefunds / GetRefundsRefund / PostRefunds
//   GET    /v1/subscriptions, /search, /:id     GetSubscriptions / GetSubscriptionsSearch / GetSubscriptionsSubscriptionExposedId
//   POST   /v1/subscriptions, /:id; DELETE /:id PostSubscriptions / PostSubscriptionsSubscriptionExposedId /
//          DeleteSubscriptionsSubscriptionExposedId (cancels)
// Lists page by keyset (`limit` 1–100, default 10, `starting_after` / `ending_before`), newest first; searches by
// an opaque `page` token. Dataset: dataset.ts (30 of each resource by default, `created` 3 days apart from
// 2024-01-01). No OAuth: Stripe API keys are static.
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
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
  RateLimiter,
  Refusal,
  rateLimited,
  requestId,
  STRIPE_API_VERSION,
  send,
  stripeError,
  unrecognizedUrl,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
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

export interface StripeFault {
  status: number;
  /** path prefix as received, e.g. `/v1/customers` */
  match: string;
  headers?: Record<string, string>;
  /** default: Stripe's error body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
}

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

export async function startStripeFake(opts: StripeFakeOptions = {}): Promise<StripeFake> {
  const keys = {
    full: new Set(opts.keys ?? [STRIPE_FAKE_SECRET_KEY, STRIPE_FAKE_RESTRICTED_KEY]),
    readOnly: new Set(opts.readOnlyKeys ?? [STRIPE_FAKE_READ_ONLY_KEY]),
  };
  const data = new Dataset(opts.records ?? 30);
  const routes: Route[] = [
    ...readRoutes(),
    ...catalogRoutes(),
    ...invoiceRoutes(),
    ...subscriptionRoutes(),
    ...paymentRoutes(),
    ...checkoutRoutes(),
  ];
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<StripeFault & { times: number }> = [];
  const limiter = new RateLimiter(opts.rateLimitPerSecond);
  const kept = new Map<string, Kept>();

  const takeFault = (path: string) => {
    const index = faults.findIndex((f) => path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const handle = (recorded: RecordedRequest, reqId: string): Answer => {
    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      const own = defaultError(fault.status, recorded.method, recorded.path);
      const headers = Object.fromEntries(
        Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      );
      return { status: fault.status, headers: { ...own.headers, ...headers }, body: fault.body ?? own.body };
    }
    const auth = parseAuth(recorded.headers, keys);
    if (auth.kind === 'none') return noKey();
    if (auth.kind === 'bad') return badKey(auth.key);
    if (limiter.limited()) return rateLimited();
    const url = new URL(recorded.path, 'http://fake.invalid');
    const method = recorded.method;
    try {
      let params: Params = parseBrackets(url.searchParams);
      if (method === 'POST' || method === 'DELETE') {
        const type = String(recorded.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim()
          .toLowerCase();
        if (recorded.body.trim() !== '') {
          if (type !== 'application/x-www-form-urlencoded')
            return invalid(
              'Invalid request (check that your POST content type is application/x-www-form-urlencoded). If you have any questions, we can help at https://support.stripe.com/.',
            );
          params = { ...params, ...parseBrackets(new URLSearchParams(recorded.body)) };
        }
      }
      let match: { route: Route; ids: string[] } | undefined;
      for (const r of routes) {
        if (r.method !== method) continue;
        const m = r.pattern.exec(url.pathname);
        if (m) {
          match = { route: r, ids: m.slice(1).map(decodeURIComponent) };
          break;
        }
      }
      if (match === undefined) {
        unhandled.push(recorded);
        return unrecognizedUrl(method, url.pathname);
      }
      if (auth.readOnly && method !== 'GET')
        return permissionDenied(auth.key, url.pathname.split('/')[2] ?? 'all');
      const idemKey = method === 'POST' ? headerOf(recorded, 'idempotency-key') : undefined;
      const endpoint = `${method} ${url.pathname}`;
      if (idemKey !== undefined) {
        if (idemKey.length > 255)
          return invalid('Idempotency keys may be at most 255 characters long.', 'Idempotency-Key');
        const prior = kept.get(`${auth.key}\u0000${idemKey}`);
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
              'idempotency-key': idemKey,
              'idempotent-replayed': 'true',
              'original-request': prior.requestId,
            },
          };
        }
      }
      const answer = run(match.route, { data, params, ids: match.ids, key: auth.key });
      if (idemKey !== undefined) {
        if ((answer.status >= 200 && answer.status < 300) || answer.status === 402)
          kept.set(`${auth.key}\u0000${idemKey}`, {
            endpoint,
            params: canonical(params),
            answer,
            requestId: reqId,
          });
        return {
          ...answer,
          headers: { ...answer.headers, 'idempotency-key': idemKey, 'original-request': reqId },
        };
      }
      return answer;
    } catch (error) {
      if (error instanceof Refusal) return error.answer;
      throw error;
    }
  };

  const server = await startRecordingServer(
    (_req, res, recorded) => {
      const reqId = requestId();
      const version = headerOf(recorded, 'stripe-version') ?? STRIPE_API_VERSION;
      send(res, handle(recorded, reqId), version, reqId);
    },
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );

  return {
    url: server.origin,
    origin: server.origin,
    requests,
    unhandled,
    data,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    close: () => server.close(),
  };
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

function headerOf(recorded: RecordedRequest, name: string): string | undefined {
  const v = recorded.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
