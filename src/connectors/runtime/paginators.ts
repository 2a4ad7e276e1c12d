/**
 * Paging styles. Each computes the complete next-page request (URL, and JSON body for body-paged searches)
 * from the current request and response, or null on the last page; the executor signs it into the opaque
 * `end_cursor`. A new style is one more case here plus its schema branch — nothing else in the runtime knows
 * how a provider pages.
 */
import type { Pagination } from '../schema.ts';
import { atPath } from './dpath.ts';

export interface PageContext {
  /** The URL that was requested (after auth was applied; the executor strips auth from what it signs). */
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  records: unknown[];
  /** The parsed JSON body that was sent, if any (body-paged styles repeat it with the cursor set). */
  requestBody?: unknown;
}

export interface NextPage {
  url: URL;
  /** Set only when the next page is requested with a JSON body. */
  body?: Record<string, unknown>;
}

export function nextPage(pagination: Pagination | undefined, ctx: PageContext): NextPage | null {
  if (!pagination) return null;
  switch (pagination.type) {
    case 'none':
      return null;
    case 'first_of':
      for (const style of pagination.styles) {
        const next = nextPage(style, ctx);
        if (next) return next;
      }
      return null;
    case 'link_header': {
      const target = parseLinkHeader(ctx.headers.link ?? '').get((pagination.rel ?? 'next').toLowerCase());
      return urlOnly(target ? resolve(target, ctx.url) : null);
    }
    case 'next_url': {
      const target = atPath(ctx.body, pagination.path);
      if (typeof target !== 'string' || target.length === 0) return null;
      const url = resolve(target, ctx.url);
      if (pagination.cursor_param === undefined || url === null) return urlOnly(url);
      // Only the cursor is taken from the provider's URL; everything else stays as the client asked.
      const cursor = url.searchParams.get(pagination.cursor_param);
      return cursor === null || cursor === ''
        ? null
        : withCursor(ctx, 'query', pagination.cursor_param, cursor);
    }
    case 'body_cursor': {
      const cursor = cursorOf(pagination, ctx.body);
      return cursor === null ? null : withCursor(ctx, pagination.in ?? 'query', pagination.param, cursor);
    }
    case 'header_cursor': {
      const cursor = ctx.headers[pagination.header.toLowerCase()];
      return cursor === undefined || cursor === ''
        ? null
        : withCursor(ctx, pagination.in ?? 'query', pagination.param, cursor);
    }
    case 'keyset': {
      if (pagination.has_more_path && atPath(ctx.body, pagination.has_more_path) !== true) return null;
      const key = atPath(ctx.records.at(-1), pagination.record_key ?? ['id']);
      if (typeof key !== 'string' && typeof key !== 'number') return null;
      return key === '' ? null : withCursor(ctx, pagination.in ?? 'query', pagination.param, String(key));
    }
    case 'relay': {
      const info = atPath(ctx.body, pagination.page_info);
      if (!isObject(info) || info.hasNextPage !== true) return null;
      const cursor = info.endCursor;
      if (typeof cursor !== 'string' || cursor === '') return null;
      // The same operation again with only the cursor variable changed (GraphQL's cursor connections).
      const sent = isObject(ctx.requestBody) ? ctx.requestBody : {};
      const variables = isObject(sent.variables) ? sent.variables : {};
      return {
        url: new URL(ctx.url),
        body: { ...sent, variables: { ...variables, [pagination.variable]: cursor } },
      };
    }
    case 'page_number': {
      if (saysLast(ctx.body, pagination.last_page_path)) return null;
      const size = numberParam(ctx.url, pagination.size_param) ?? pagination.page_size;
      if (isLastPage(ctx.records, size)) return null;
      const current = numberParam(ctx.url, pagination.param) ?? pagination.start ?? 1;
      const pages = pagination.total_pages_path && Number(atPath(ctx.body, pagination.total_pages_path));
      // Pages count from `start` (0 or 1); the last one is number total - 1 + start.
      if (pages !== undefined && Number.isFinite(pages) && current - (pagination.start ?? 1) + 1 >= pages)
        return null;
      return urlOnly(withParam(ctx.url, pagination.param, String(current + 1)));
    }
    case 'offset': {
      if (saysLast(ctx.body, pagination.last_page_path)) return null;
      const limit = numberParam(ctx.url, pagination.limit_param) ?? pagination.page_size;
      if (isLastPage(ctx.records, limit)) return null;
      const next = (numberParam(ctx.url, pagination.offset_param) ?? 0) + ctx.records.length;
      const total = pagination.total_path && Number(atPath(ctx.body, pagination.total_path));
      if (total !== undefined && Number.isFinite(total) && next >= total) return null;
      return urlOnly(withParam(ctx.url, pagination.offset_param, String(next)));
    }
  }
}

/**
 * The current request again with `param` set to the cursor: in the query, or as a member of the JSON body,
 * which providers want repeated unchanged but for the cursor ("all other request inputs should remain the same").
 */
function withCursor(ctx: PageContext, where: 'query' | 'body', param: string, cursor: string): NextPage {
  if (where === 'query') return { url: withParam(ctx.url, param, cursor) };
  const sent = isObject(ctx.requestBody) ? ctx.requestBody : {};
  return { url: new URL(ctx.url), body: { ...sent, [param]: cursor } };
}

function urlOnly(url: URL | null): NextPage | null {
  return url ? { url } : null;
}

function saysLast(body: unknown, path: string[] | undefined): boolean {
  return path !== undefined && atPath(body, path) === true;
}

function cursorOf(pagination: Extract<Pagination, { type: 'body_cursor' }>, body: unknown): string | null {
  if (pagination.has_more_path && atPath(body, pagination.has_more_path) !== true) return null;
  const cursor = atPath(body, pagination.cursor_path);
  return cursor === undefined || cursor === null || cursor === '' ? null : String(cursor);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An empty page always ends paging; a short page ends it when the page size is known. */
function isLastPage(records: unknown[], size: number | undefined): boolean {
  return records.length === 0 || (size !== undefined && records.length < size);
}

function numberParam(url: URL, name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const raw = url.searchParams.get(name);
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

function withParam(url: URL, name: string, value: string): URL {
  // The same URL as copying `url` and setting the param through its searchParams, parsed once instead of
  // three times (the copy, its query, the query written back).
  const search = new URLSearchParams(url.search);
  search.set(name, value);
  // The path ends at the first '?' or '#' (neither is left unescaped in a path); a fragment is kept as it was.
  const { href } = url;
  const pathEnd = href.search(/[?#]/);
  const hashAt = href.indexOf('#');
  const path = pathEnd < 0 ? href : href.slice(0, pathEnd);
  return new URL(`${path}?${search.toString()}${hashAt < 0 ? '' : href.slice(hashAt)}`);
}

/** A URL with its scheme and host, as most providers' next links are (GitHub's, Jira's, Stripe's). */
const ABSOLUTE_URL = /^https?:\/\//i;

function resolve(target: string, base: URL): URL | null {
  try {
    // An absolute target ignores the base: not handing it over spares serialising and parsing it again.
    return ABSOLUTE_URL.test(target) ? new URL(target) : new URL(target, base);
  } catch {
    return null;
  }
}

/** RFC 8288 `Link` header -> rel -> URL (first occurrence wins; rel values are case-insensitive). */
export function parseLinkHeader(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]*)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(m[2] ?? '');
    const rels = rel?.[1] ?? rel?.[2];
    if (!rels) continue;
    for (const r of rels.trim().split(/\s+/)) {
      const key = r.toLowerCase();
      if (!out.has(key)) out.set(key, m[1] as string);
    }
  }
  return out;
}
