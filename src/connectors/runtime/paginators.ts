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
  if (pagination?.type === 'first_of') {
    for (const style of pagination.styles) {
      const next = nextPage(style, ctx);
      if (next) return next;
    }
    return null;
  }
  if (pagination?.type === 'body_cursor' && pagination.in === 'body') {
    const cursor = cursorOf(pagination, ctx.body);
    if (cursor === null) return null;
    // The provider wants the same search again with only the cursor added ("all other inputs unchanged").
    const sent = isObject(ctx.requestBody) ? ctx.requestBody : {};
    return { url: new URL(ctx.url), body: { ...sent, [pagination.param]: cursor } };
  }
  if (pagination?.type === 'relay') {
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
  const url = nextPageUrl(pagination, ctx);
  return url ? { url } : null;
}

/** The next page's URL for the query-paged styles (a body-paged style keeps the URL; see `nextPage`). */
export function nextPageUrl(pagination: Pagination | undefined, ctx: PageContext): URL | null {
  if (!pagination) return null;
  switch (pagination.type) {
    case 'none':
    case 'relay':
      return null;
    case 'first_of':
      for (const style of pagination.styles) {
        const next = nextPageUrl(style, ctx);
        if (next) return next;
      }
      return null;
    case 'link_header': {
      const target = parseLinkHeader(ctx.headers.link ?? '').get((pagination.rel ?? 'next').toLowerCase());
      return target ? resolve(target, ctx.url) : null;
    }
    case 'next_url': {
      const target = atPath(ctx.body, pagination.path);
      return typeof target === 'string' && target.length > 0 ? resolve(target, ctx.url) : null;
    }
    case 'body_cursor': {
      const cursor = cursorOf(pagination, ctx.body);
      return cursor === null ? null : withParam(ctx.url, pagination.param, cursor);
    }
    case 'page_number': {
      const size = numberParam(ctx.url, pagination.size_param) ?? pagination.page_size;
      if (isLastPage(ctx.records, size)) return null;
      const current = numberParam(ctx.url, pagination.param) ?? pagination.start ?? 1;
      return withParam(ctx.url, pagination.param, String(current + 1));
    }
    case 'offset': {
      const limit = numberParam(ctx.url, pagination.limit_param) ?? pagination.page_size;
      if (isLastPage(ctx.records, limit)) return null;
      const offset = numberParam(ctx.url, pagination.offset_param) ?? 0;
      return withParam(ctx.url, pagination.offset_param, String(offset + ctx.records.length));
    }
  }
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
  const next = new URL(url);
  next.searchParams.set(name, value);
  return next;
}

function resolve(target: string, base: URL): URL | null {
  try {
    return new URL(target, base);
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
