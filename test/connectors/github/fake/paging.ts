// Page-number pagination as described in "Using pagination in the REST API" (docs.github.com):
// `per_page` defaults to 30 and is silently reduced to the maximum (100) when larger; the `link` header holds
// absolute URLs with rel prev/next/last/first (in that order, as the recorded responses show), keeps the
// caller's query parameters with `page` last, and is omitted when every result fits on one page. The slice and
// the header are the kit's (kit/paging.ts `pageNumber`, `linkHeader`).
import { linkHeader, pageNumber } from '../../kit/paging.ts';

export interface Page<T> {
  items: T[];
  link: string | undefined;
}

export function parsePaging(query: URLSearchParams, defaultPerPage = 30, maxPerPage = 100) {
  const per = parsePositiveInt(query.get('per_page'));
  const page = parsePositiveInt(query.get('page'));
  return { perPage: Math.min(per ?? defaultPerPage, maxPerPage), page: page ?? 1 };
}

function parsePositiveInt(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const n = Number.parseInt(raw, 10);
  return n > 0 ? n : undefined;
}

export interface PagingOptions {
  defaultPerPage?: number;
  maxPerPage?: number;
  /** Only this many leading results can be paged to (search: 1000); `last` points at the last such page. */
  reachable?: number;
}

/**
 * `linkPath` is the canonical id-based path GitHub advertises in `link` (e.g. /repositories/{id}/issues),
 * which need not be the path the client called.
 */
export function paginate<T>(
  all: readonly T[],
  query: URLSearchParams,
  baseUrl: string,
  linkPath: string,
  opts: PagingOptions = {},
): Page<T> {
  const { perPage, page } = parsePaging(query, opts.defaultPerPage, opts.maxPerPage);
  const reachable = opts.reachable === undefined ? all : all.slice(0, opts.reachable);
  const { items, pages } = pageNumber(reachable, page, perPage);
  const href = (n: number) => {
    const params = new URLSearchParams(query);
    params.delete('page');
    params.append('page', String(n));
    return `${baseUrl}${linkPath}?${params.toString()}`;
  };
  const more = page < pages;
  const link = linkHeader({
    prev: page > 1 ? href(page - 1) : undefined,
    next: more ? href(page + 1) : undefined,
    last: more ? href(pages) : undefined,
    first: page > 1 ? href(1) : undefined,
  });
  return { items, link };
}
