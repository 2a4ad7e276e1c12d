// Shopify REST Admin API wire conventions shared by every route:
//   - Authentication (https://shopify.dev/docs/api/admin-rest#authentication): the access token in
//     X-Shopify-Access-Token; without a valid one, 401 {"errors": "[API] Invalid API key or access token
//     (unrecognized login or wrong password)"}.
//   - Errors (https://shopify.dev/docs/api/admin-rest#status-and-error-codes): {"errors": <string or object>};
//     a missing resource is 404 {"errors": "Not Found"}; a token without the resource's scope 403.
//   - Pagination (https://shopify.dev/docs/api/usage/pagination-rest): the next page is named in a Link header,
//     `<https://{shop}.myshopify.com/admin/api/{version}/products.json?limit=50&page_info=...>; rel="next"`;
//     page_info is opaque, and a request that carries it may add only limit and fields (the filters live in the
//     page_info). limit: default 50, at most 250.
//   - Rate limits (https://shopify.dev/docs/api/usage/limits#rest-admin-api-rate-limits): a leaky bucket of 40
//     requests per app and store that leaks 2 a second; each answer says the fill in
//     X-Shopify-Shop-Api-Call-Limit ("32/40"); over it, 429 with Retry-After ("2.0") and
//     {"errors": "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service."}.
// The message texts of 400 answers are the fake's own: the reference names the statuses, not those texts.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const MESSAGES = {
  unauthorized: '[API] Invalid API key or access token (unrecognized login or wrong password)',
  notFound: 'Not Found',
  forbidden: '[API] This action requires merchant approval for read_orders scope.',
  rateLimited:
    'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
  serverError: 'Internal Server Error',
} as const;

export const errorBody = (errors: unknown) => ({ errors });

/** Shopify's leaky bucket: `capacity` requests, draining `leakPerSecond`; the fill is what the header says. */
export class LeakyBucket {
  private level = 0;
  private at = Date.now();

  constructor(
    readonly capacity: number,
    readonly leakPerSecond: number,
  ) {}

  /** Counts one request; answers the seconds to wait when the bucket is full (then nothing is counted). */
  take(enforce: boolean, now = Date.now()): number | undefined {
    this.level = Math.max(0, this.level - ((now - this.at) / 1000) * this.leakPerSecond);
    this.at = now;
    if (enforce && this.level + 1 > this.capacity)
      return Math.max(1, Math.ceil((this.level + 1 - this.capacity) / this.leakPerSecond));
    this.level = Math.min(this.capacity, this.level + 1);
    return undefined;
  }

  /** The X-Shopify-Shop-Api-Call-Limit value, e.g. "32/40". */
  header(): string {
    return `${Math.ceil(this.level)}/${this.capacity}`;
  }
}

/**
 * page_info tokens: the route, the position after the page, and the first request's filters (a next-page
 * request carries nothing else), signed so a changed or foreign token is refused as Shopify refuses one.
 */
export class PageInfo {
  private readonly key = randomBytes(32);

  sign(route: string, after: number, filters: Record<string, string>): string {
    const payload = Buffer.from(JSON.stringify({ r: route, a: after, f: filters })).toString('base64url');
    return `${payload}${this.mac(payload)}`;
  }

  verify(token: string, route: string): { after: number; filters: Record<string, string> } | undefined {
    const payload = token.slice(0, -22);
    const given = Buffer.from(token.slice(-22));
    const expected = Buffer.from(this.mac(payload));
    if (payload === '' || given.length !== expected.length || !timingSafeEqual(given, expected))
      return undefined;
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      r: string;
      a: number;
      f: Record<string, string>;
    };
    return data.r === route ? { after: data.a, filters: data.f } : undefined;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }
}
