// The paging styles providers use, as slices over a fake's data plus the page's continuation; the fake renders
// its provider's own envelope around them (members, names, where the cursor goes). Each style answers a
// `Page<T>`, or undefined when the request's continuation is not one the fake handed out (the provider's
// "invalid cursor" answer is the fake's to give).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Page<T> {
  items: T[];
  /** offset of the first item */
  offset: number;
  /** offset of the next page's first item, when there is one */
  next?: number;
  total: number;
}

/** `limit` items from `offset` (offset paging; every style below is one on top of it). */
export function slice<T>(all: readonly T[], offset: number, limit: number): Page<T> {
  const items = all.slice(offset, offset + limit);
  const next = offset + items.length;
  return { items, offset, total: all.length, ...(next < all.length && items.length > 0 ? { next } : {}) };
}

/** Page-number paging (1-based, as GitHub's `page`, Slack's files.list): page `page` of `perPage` items. */
export function pageNumber<T>(
  all: readonly T[],
  page: number,
  perPage: number,
): Page<T> & { page: number; pages: number } {
  const p = Math.max(1, Math.floor(page));
  return {
    ...slice(all, (p - 1) * perPage, perPage),
    page: p,
    pages: Math.max(1, Math.ceil(all.length / perPage)),
  };
}

/**
 * Keyset paging: the items after the one whose key is `after` (items sorted by key), as Stripe's
 * `starting_after` or a "since id". An `after` no item has answers undefined.
 */
export function keyset<T>(
  all: readonly T[],
  key: (item: T) => string,
  after: string | undefined,
  limit: number,
): Page<T> | undefined {
  let offset = 0;
  if (after !== undefined) {
    const at = all.findIndex((item) => key(item) === after);
    if (at < 0) return undefined;
    offset = at + 1;
  }
  return slice(all, offset, limit);
}

/**
 * Opaque cursors bound to the request they continue: a signed token carrying the route, the next offset and a
 * fingerprint of the request's other inputs, so a cursor replayed with changed inputs, on another route, or
 * forged is refused. `wrap` gives the token the provider's look (Gong's JWT-like `header.payload.mac`, a
 * base64 string, ...); the default is `payload.mac`.
 */
export class CursorCodec {
  private readonly key = randomBytes(32);

  constructor(
    private readonly look: {
      wrap(payload: string, mac: string): string;
      unwrap(cursor: string): [string, string] | undefined;
    } = {
      wrap: (payload, mac) => `${payload}.${mac}`,
      unwrap: (cursor) => {
        const parts = cursor.split('.');
        return parts.length === 2 ? [parts[0] as string, parts[1] as string] : undefined;
      },
    },
  ) {}

  sign(route: string, offset: number, inputs = ''): string {
    const payload = Buffer.from(JSON.stringify({ route, offset, inputs: digest(inputs) })).toString(
      'base64url',
    );
    return this.look.wrap(payload, this.mac(payload));
  }

  /** The offset the cursor continues from, or undefined when it is not a cursor for this request. */
  verify(cursor: string, route: string, inputs = ''): number | undefined {
    const parts = this.look.unwrap(cursor);
    if (parts === undefined) return undefined;
    const [payload, mac] = parts;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      route: string;
      offset: number;
      inputs: string;
    };
    return data.route === route && data.inputs === digest(inputs) ? data.offset : undefined;
  }

  /** One page at a cursor: `slice` from the cursor's offset (0 without one) and the next page's cursor. */
  page<T>(
    all: readonly T[],
    at: { cursor: string | undefined; route: string; inputs?: string; limit: number },
  ): (Page<T> & { nextCursor?: string }) | undefined {
    let offset = 0;
    if (at.cursor !== undefined) {
      const verified = this.verify(at.cursor, at.route, at.inputs);
      if (verified === undefined) return undefined;
      offset = verified;
    }
    const page = slice(all, offset, at.limit);
    return page.next === undefined
      ? page
      : { ...page, nextCursor: this.sign(at.route, page.next, at.inputs) };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

function digest(text: string): string {
  return createHmac('sha256', 'inputs').update(text).digest('base64url').slice(0, 16);
}

/** JSON with sorted keys, so two requests with the same inputs fingerprint alike whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A query's inputs other than the paging ones, as `CursorCodec` fingerprints them. */
export function queryInputs(query: URLSearchParams, paging: readonly string[] = ['cursor']): string {
  return canonical(Object.fromEntries([...query].filter(([k]) => !paging.includes(k))));
}

/**
 * The URL of another page: the request's own URL with `params` set (a "next URL" in the body, as Zendesk's
 * `next_page` or HubSpot's `paging.next.link`, or one entry of a Link header).
 */
export function pageUrl(
  origin: string,
  pathAndQuery: string,
  params: Record<string, string | number>,
): string {
  const url = new URL(pathAndQuery, origin);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  return url.toString();
}

/** An RFC 8288 Link header (`<url>; rel="next", ...`), as GitHub and Jira's Service Desk page with it. */
export function linkHeader(
  links: Partial<Record<'next' | 'prev' | 'first' | 'last', string>>,
): string | undefined {
  const parts = Object.entries(links)
    .filter(([, url]) => url !== undefined)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`);
  return parts.length === 0 ? undefined : parts.join(', ');
}
