// Stripe's two paging styles and its `expand` parameter.
//   - Lists (docs.stripe.com/api/pagination): `{object: "list", data, has_more, url}`, newest first; `limit` 1–100
//     (default 10); `starting_after=<id>` continues after that object, `ending_before=<id>` gives the page just
//     before it (still newest first); `has_more` tells whether more lie in the direction travelled.
//   - Search (docs.stripe.com/api/pagination/search): `{object: "search_result", data, has_more, next_page, url}`
//     with an opaque `page` token; `total_count` only when `expand[]=total_count`.
//   - Expansion (docs.stripe.com/api/expanding_objects): `expand[]=customer` swaps an id for its object, dotted
//     paths go deeper (`latest_charge.balance_transaction`), in lists they start with `data.`; up to 4 levels.
import { CursorCodec } from '../../kit/paging.ts';
import type { Dataset } from './dataset.ts';
import { array, int } from './params.ts';
import type { Obj } from './records.ts';
import { fail, invalid, noSuch, type Params } from './wire.ts';

export function limitOf(params: Params): number {
  const limit = int(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100) fail(invalid('Invalid limit: must be between 1 and 100', 'limit'));
  return limit;
}

/** One page of a list, `items` being the filtered objects newest first. */
export function listPage(data: Dataset, items: Obj[], params: Params, url: string, noun: string): Obj {
  const limit = limitOf(params);
  const after = params.starting_after;
  const before = params.ending_before;
  if (after !== undefined && before !== undefined)
    fail(
      invalid(
        'You may only specify one of these parameters: ending_before, starting_after.',
        'ending_before',
      ),
    );
  let page: Obj[];
  let hasMore: boolean;
  if (typeof before === 'string' && before !== '') {
    const at = cursorIndex(data, items, before, noun, 'ending_before');
    const newer = items.slice(0, at);
    page = newer.slice(Math.max(0, newer.length - limit));
    hasMore = newer.length > limit;
  } else {
    const start =
      typeof after === 'string' && after !== '' ? cursorIndex(data, items, after, noun, 'starting_after') : 0;
    page = items.slice(start, start + limit);
    hasMore = start + limit < items.length;
  }
  return { object: 'list', data: expandAll(data, page, params, true), has_more: hasMore, url };
}

/**
 * Where the cursor object sits in `items`: the index of the first item older than it. The cursor need not pass
 * the list's filters (Stripe pages by the object's position), but it must exist.
 */
function cursorIndex(data: Dataset, items: Obj[], id: string, noun: string, param: string): number {
  const exact = items.findIndex((o) => o.id === id);
  if (exact >= 0) return param === 'starting_after' ? exact + 1 : exact;
  const cursor = data.byId(id);
  if (cursor === undefined) fail(noSuch(noun, id, param));
  const all = data.all(cursor.object);
  const rank = new Map(all.map((o, i) => [o.id as string, i]));
  const mine = rank.get(id) ?? 0;
  const idx = items.findIndex((o) => (rank.get(o.id) ?? -1) > mine);
  return idx < 0 ? items.length : idx;
}

/** Search page tokens: the kit's signed cursors, bound to the search and its query. */
const pages = new CursorCodec();

/** One page of search results; the page token binds the query, so it can't be replayed with another one. */
export function searchPage(data: Dataset, items: Obj[], params: Params, url: string, query: string): Obj {
  const limit = limitOf(params);
  const token = params.page;
  let offset = 0;
  if (token !== undefined && token !== '') {
    const at = typeof token === 'string' ? pages.verify(token, url, query) : undefined;
    if (at === undefined)
      fail(invalid('Invalid page: this page token does not belong to this query.', 'page'));
    offset = at;
  }
  const page = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  const wantsTotal = (array(params, 'expand') ?? []).includes('total_count');
  const body: Obj = {
    object: 'search_result',
    data: expandAll(
      data,
      page,
      { ...params, expand: (array(params, 'expand') ?? []).filter((e) => e !== 'total_count') },
      true,
    ),
    has_more: more,
    next_page: more ? pages.sign(url, offset + limit, query) : null,
    url,
  };
  if (wantsTotal) body.total_count = items.length;
  return body;
}

/** The `expand[]` paths of a request. */
function expandPaths(params: Params): string[] {
  return (array(params, 'expand') ?? []).map((p, i) => {
    if (typeof p !== 'string') fail(invalid('Invalid array', `expand[${i}]`));
    return p;
  });
}

export function expandAll(data: Dataset, objs: Obj[], params: Params, inList: boolean): Obj[] {
  const paths = expandPaths(params);
  if (paths.length === 0) return objs;
  const own: string[] = [];
  for (const p of paths) {
    if (inList && !p.startsWith('data.'))
      fail(
        invalid(
          `This property cannot be expanded (${p}). You may want to try expanding 'data.${p}' instead.`,
          'expand',
        ),
      );
    own.push(inList ? p.slice(5) : p);
  }
  return objs.map((o) => expandOne(data, o, own));
}

/** The object with its `expand[]` paths swapped for objects; the stored object is left as it is. */
export function expanded(data: Dataset, obj: Obj, params: Params): Obj {
  const paths = expandPaths(params);
  return paths.length === 0 ? obj : expandOne(data, obj, paths);
}

function expandOne(data: Dataset, obj: Obj, paths: string[]): Obj {
  const copy = structuredClone(obj);
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length > 4)
      fail(invalid(`You cannot expand more than 4 levels of a property (${path}).`, 'expand'));
    expandPath(data, copy, parts, path);
  }
  return copy;
}

function expandPath(data: Dataset, node: Obj, parts: string[], full: string): void {
  const [head, ...rest] = parts as [string, ...string[]];
  if (!(head in node)) fail(invalid(`This property cannot be expanded (${full}).`, 'expand'));
  let value = node[head];
  if (typeof value === 'string') {
    const target = data.byId(value);
    if (target === undefined) {
      if (!/^[a-z]+_[A-Za-z0-9]/.test(value))
        fail(invalid(`This property cannot be expanded (${full}).`, 'expand'));
      return;
    }
    value = structuredClone(target);
    node[head] = value;
  } else if (
    value !== null &&
    (typeof value !== 'object' || (rest.length === 0 && !('id' in value) && value.object !== 'list'))
  ) {
    // Only references (ids, objects already expanded, embedded lists) can be expanded.
    fail(invalid(`This property cannot be expanded (${full}).`, 'expand'));
  }
  if (rest.length > 0 && value !== null && typeof value === 'object') {
    if (value.object === 'list' && Array.isArray(value.data) && rest[0] === 'data')
      for (const item of value.data as Obj[]) expandPath(data, item, rest.slice(1), full);
    else expandPath(data, value, rest, full);
  }
}
