// The two paging styles of Zendesk list endpoints, per "Pagination" (api-reference/introduction/pagination),
// "Paginating through lists using cursor pagination" and "Comparing cursor pagination and offset pagination"
// (documentation/api-basics/pagination/):
//   - cursor, chosen by `page[size]` (1–100): body `meta: {has_more, after_cursor, before_cursor}` and
//     `links: {next, prev}` (absolute URLs); the next page is `page[after]=<after_cursor>`, the previous one
//     `page[before]=<before_cursor>`. A non-empty last page still has `links.next` (the docs say to stop when
//     `meta.has_more` is false, not when a link is missing); an empty page has null cursors and links.
//   - offset, the default: `page` (from 1) and `per_page` (default and maximum 100; larger values are cut to
//     100), body `next_page` / `previous_page` (absolute URLs with `.json`, null at the ends) and `count`.
// `page` and `page[size]` are mutually exclusive (parameter DualPaginationPage of the OpenAPI description).
import { pageUrl } from '../../kit/paging.ts';
import { invalidPagination } from './wire.ts';

export type Paging =
  | { kind: 'offset'; page: number; perPage: number }
  | { kind: 'cursor'; size: number; after: string | null; before: string | null };

export const MAX_PAGE_SIZE = 100;

export function parsePaging(q: URLSearchParams): Paging | { error: ReturnType<typeof invalidPagination> } {
  const size = q.get('page[size]');
  const after = q.get('page[after]');
  const before = q.get('page[before]');
  if (size === null && after === null && before === null) {
    const perPage = positiveInt(q.get('per_page'));
    return { kind: 'offset', page: positiveInt(q.get('page')) ?? 1, perPage: Math.min(perPage ?? 100, 100) };
  }
  if (q.has('page')) return { error: invalidPagination('page and page[size] can not be used together') };
  if (after !== null && before !== null)
    return { error: invalidPagination('page[before] and page[after] can not be used together') };
  const n = size === null ? MAX_PAGE_SIZE : positiveInt(size);
  if (n === undefined || n > MAX_PAGE_SIZE)
    return { error: invalidPagination(`page[size] must be an integer between 1 and ${MAX_PAGE_SIZE}`) };
  return { kind: 'cursor', size: n, after, before };
}

function positiveInt(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const n = Number.parseInt(raw, 10);
  return n > 0 ? n : undefined;
}

export interface PageRequest {
  origin: string;
  /** Canonical path without `.json`, e.g. /api/v2/tickets. */
  path: string;
  query: URLSearchParams;
  /** Name of the ordering, part of every cursor so a cursor can't be replayed against another order. */
  order: string;
}

export type PageResult<T> =
  | { ok: true; items: T[]; members: Record<string, unknown> }
  | { ok: false; error: ReturnType<typeof invalidPagination> };

/** Slices `all` (already filtered and ordered) as the request asks; `members` go beside the records. */
export function paginate<T extends { id: number }>(all: readonly T[], req: PageRequest): PageResult<T> {
  const paging = parsePaging(req.query);
  if ('error' in paging) return { ok: false, error: paging.error };
  if (paging.kind === 'offset') {
    const start = (paging.page - 1) * paging.perPage;
    const items = all.slice(start, start + paging.perPage);
    const last = Math.max(1, Math.ceil(all.length / paging.perPage));
    const link = (page: number) =>
      pageUrl(req.origin, `${req.path}.json?${req.query}`, { page, per_page: paging.perPage });
    return {
      ok: true,
      items,
      members: {
        next_page: paging.page < last ? link(paging.page + 1) : null,
        previous_page: paging.page > 1 ? link(Math.min(paging.page - 1, last)) : null,
        count: all.length,
      },
    };
  }
  const cursor = paging.after ?? paging.before;
  let index = -1;
  if (cursor !== null) {
    const id = decodeCursor(cursor, req.order);
    index = id === undefined ? -1 : all.findIndex((r) => r.id === id);
    if (index < 0) return { ok: false, error: invalidPagination('Invalid cursor') };
  }
  let items: T[];
  let hasMore: boolean;
  if (paging.before !== null) {
    const from = Math.max(0, index - paging.size);
    items = all.slice(from, index);
    hasMore = from > 0;
  } else {
    items = all.slice(index + 1, index + 1 + paging.size);
    hasMore = index + 1 + paging.size < all.length;
  }
  const first = items[0];
  const last = items.at(-1);
  const link = (key: 'page[after]' | 'page[before]', value: string) => {
    const q = new URLSearchParams(req.query);
    q.delete('page[after]');
    q.delete('page[before]');
    q.set('page[size]', String(paging.size));
    q.set(key, value);
    return `${req.origin}${req.path}.json?${q.toString()}`;
  };
  const after = last === undefined ? null : encodeCursor(req.order, last.id);
  const before = first === undefined ? null : encodeCursor(req.order, first.id);
  return {
    ok: true,
    items,
    members: {
      meta: { has_more: hasMore, after_cursor: after, before_cursor: before },
      links: {
        prev: before === null ? null : link('page[before]', before),
        next: after === null ? null : link('page[after]', after),
      },
    },
  };
}

// Zendesk cursors are opaque base64 JSON such as {"o":"id","v":"aQE="}: the ordering and the position in it.
function encodeCursor(order: string, id: number): string {
  const v = Buffer.from(String(id)).toString('base64');
  return Buffer.from(JSON.stringify({ o: order, v })).toString('base64url');
}

function decodeCursor(cursor: string, order: string): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      o?: unknown;
      v?: unknown;
    };
    if (parsed.o !== order || typeof parsed.v !== 'string') return undefined;
    const id = Number(Buffer.from(parsed.v, 'base64').toString('utf8'));
    return Number.isSafeInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
