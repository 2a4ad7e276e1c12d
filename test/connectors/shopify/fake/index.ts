// A wire-faithful fake of one store's Shopify REST Admin API (https://{shop}.myshopify.com/admin/api/{version})
// on the kit, following the shopify.dev reference pages each route names (routes.ts; conventions in wire.ts).
// Dispatch order for every request:
//   1. a fault injected with failNext (matching path prefix)      → the fault (body: Shopify's {"errors": ...})
//   2. no or unknown X-Shopify-Access-Token                         → 401 {"errors": "[API] Invalid API key ..."}
//   3. an API version the fake does not serve                       → 404 {"errors": "Not Found"}
//   4. the leaky bucket full (only when `rateLimit` is on)          → 429 + Retry-After
//   5. a route of routes.ts over the seeded dataset                 → its answer
//   6. anything else                                                → 404, recorded in `unhandled`
// Every answer carries X-Shopify-Shop-Api-Call-Limit, the bucket's fill (counted whether or not it is enforced).
import type { ServerResponse } from 'node:http';
import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, type RecordedRequest, sendJson, startFake } from '../../kit/index.ts';
import { safeEqual } from '../../kit/token.ts';
import { Dataset, type DatasetOptions } from './dataset.ts';
import { createRoutes } from './routes.ts';
import { errorBody, LeakyBucket, MESSAGES, PageInfo } from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

/** A custom app's Admin API access token, as Shopify shapes them (shpat_ and 32 hex digits). */
export const SHOPIFY_FAKE_TOKEN = 'shpat_0123456789abcdef0123456789abcdef';
export const SHOPIFY_FAKE_SHOP = 'ces-demo';
export const SHOPIFY_API_VERSION = '2026-10';

export interface ShopifyFakeOptions extends DatasetOptions {
  /** accepted access tokens, default [SHOPIFY_FAKE_TOKEN] */
  tokens?: string[];
  /** records per page without `limit`, default 50 as Shopify */
  pageSize?: number;
  /** API versions served, default the four releases from 2026-01 */
  versions?: string[];
  /** enforce the leaky bucket (Shopify: 40 and 2 a second); default off so tests don't trip over it */
  rateLimit?: { capacity: number; leakPerSecond: number };
}

export interface ShopifyFake {
  /** the API root of the pinned version, e.g. http://127.0.0.1:54321/admin/api/2026-10 */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: Fault): void;
  data: Dataset;
  bucket: LeakyBucket;
  close(): Promise<void>;
}

const definition = loadDefinition('shopify');

export async function startShopifyFake(opts: ShopifyFakeOptions = {}): Promise<ShopifyFake> {
  const data = new Dataset(opts);
  const tokens = opts.tokens ?? [SHOPIFY_FAKE_TOKEN];
  const versions = new Set(opts.versions ?? ['2026-01', '2026-04', '2026-07', '2026-10']);
  const bucket = new LeakyBucket(opts.rateLimit?.capacity ?? 40, opts.rateLimit?.leakPerSecond ?? 2);
  const enforce = opts.rateLimit !== undefined;
  const fake = await startFake({
    definition,
    routes: createRoutes(data, new PageInfo(), opts.pageSize ?? 50),
    authenticate: (recorded) => {
      const given = recorded.headers['x-shopify-access-token'];
      return typeof given === 'string' && tokens.some((t) => safeEqual(given, t))
        ? { token: given }
        : { refuse: { status: 401, body: errorBody(MESSAGES.unauthorized) } };
    },
    before: (recorded) => {
      const version = /^\/admin\/api\/([^/]+)\//.exec(
        new URL(recorded.path, 'http://fake.invalid').pathname,
      )?.[1];
      if (version === undefined || !versions.has(version))
        return { status: 404, body: errorBody(MESSAGES.notFound) };
      const wait = bucket.take(enforce);
      return wait === undefined
        ? undefined
        : { status: 429, headers: { 'retry-after': `${wait}.0` }, body: errorBody(MESSAGES.rateLimited) };
    },
    errors: {
      body: (status) =>
        errorBody(
          status === 401
            ? MESSAGES.unauthorized
            : status === 403
              ? MESSAGES.forbidden
              : status === 404
                ? MESSAGES.notFound
                : status === 429
                  ? MESSAGES.rateLimited
                  : MESSAGES.serverError,
        ),
    },
    send: (res: ServerResponse, answer) =>
      sendJson(res, {
        ...answer,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-shopify-shop-api-call-limit': bucket.header(),
          ...(answer.headers ?? {}),
        },
      }),
  });
  return {
    url: `${fake.origin}/admin/api/${SHOPIFY_API_VERSION}`,
    origin: fake.origin,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    data,
    bucket,
    close: fake.close,
  };
}
