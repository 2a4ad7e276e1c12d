// Page-number pagination as described in "Using pagination in the REST API" (docs.github.com):
// `per_page` defaults to 30 and is silently reduced to the maximum (100) when larger; the `link` header holds
// absolute URLs with rel prev/next/last/first (in that order, as the recorded responses show), keeps the
// caller's query parameters with `page` last, and is omitted when every result fits on one page.

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
  const reachable = Math.min(all.length, opts.reachable ?? all.length);
  const start = (page - 1) * perPage;
  const items = all.slice(start, Math.min(start + perPage, reachable));
  const lastPage = Math.max(1, Math.ceil(reachable / perPage));

  const href = (n: number) => {
    const params = new URLSearchParams(query);
    params.delete('page');
    params.append('page', String(n));
    return `<${baseUrl}${linkPath}?${params.toString()}>`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`${href(page - 1)}; rel="prev"`);
  if (page < lastPage) rels.push(`${href(page + 1)}; rel="next"`, `${href(lastPage)}; rel="last"`);
  if (page > 1) rels.push(`${href(1)}; rel="first"`);
  return { items, link: rels.length === 0 ? undefined : rels.join(', ') };
}
