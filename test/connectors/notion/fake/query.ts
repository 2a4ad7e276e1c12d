// POST /v1/search (post-search) and POST /v1/data_sources/{id}/query (query-data-source).
//   search: body `{query?, filter?: {property: "object", value: "page" | "data_source"}, sort?: {timestamp:
//     "last_edited_time", direction}, start_cursor?, page_size?}`; titles matched case-insensitively; without a
//     sort the most recently edited come first; trashed objects are left out. On 2022-06-28 the filter value is
//     "database" instead of "data_source" and databases (with their schema) are answered instead of data
//     sources; the list type is `page_or_data_source` (2025-09-03) / `page_or_database` (2022-06-28).
//   query: body `{filter?, sorts?, start_cursor?, page_size?}` over the data source's pages. Filters supported:
//     compound `and` / `or`; `{timestamp: "created_time" | "last_edited_time", <timestamp>: {…}}`; property
//     filters on title, select, multi_select, people, date, checkbox and the time properties, by property
//     name or id. Sorts: `{timestamp, direction}` and `{property, direction}`. Without sorts, oldest first.

import { type Env, filterProperties, listAnswer, type RouteRequest } from './context.ts';
import type { PageRec } from './dataset.ts';
import { PROPERTY_IDS } from './render.ts';
import { type Answer, invalid, isAnswer, notFound } from './wire.ts';

const PROPERTY_TYPES: Record<string, string> = {
  Name: 'title',
  Status: 'select',
  Tags: 'multi_select',
  Owner: 'people',
  Due: 'date',
  Done: 'checkbox',
  'Last edited': 'last_edited_time',
  Created: 'created_time',
};

export function search(env: Env, req: RouteRequest): Answer {
  const { body, version } = req;
  const objectValue = version === '2022-06-28' ? 'database' : 'data_source';
  if (body.query !== undefined && typeof body.query !== 'string')
    return invalid(
      `body failed validation: body.query should be a string, instead was \`${JSON.stringify(body.query)}\`.`,
    );
  const filter = body.filter as { property?: unknown; value?: unknown } | undefined;
  if (filter !== undefined) {
    if (filter?.property !== 'object')
      return invalid(
        `body failed validation: body.filter.property should be "object", instead was \`${JSON.stringify(filter?.property)}\`.`,
      );
    if (filter.value !== 'page' && filter.value !== objectValue)
      return invalid(
        `body failed validation: body.filter.value should be "page" or "${objectValue}", instead was \`${JSON.stringify(filter.value)}\`.`,
      );
  }
  const sort = body.sort as { timestamp?: unknown; direction?: unknown } | undefined;
  if (sort !== undefined) {
    if (sort?.timestamp !== 'last_edited_time')
      return invalid(
        `body failed validation: body.sort.timestamp should be "last_edited_time", instead was \`${JSON.stringify(sort?.timestamp)}\`.`,
      );
    if (sort.direction !== 'ascending' && sort.direction !== 'descending')
      return invalid(
        `body failed validation: body.sort.direction should be "ascending" or "descending", instead was \`${JSON.stringify(sort.direction)}\`.`,
      );
  }
  const needle = (body.query ?? '').toLowerCase();
  type Hit = { id: string; edited: number; render: () => unknown };
  const hits: Hit[] = [];
  if (filter?.value !== objectValue) {
    for (const p of env.data.pages)
      if (!p.in_trash && p.title.toLowerCase().includes(needle))
        hits.push({ id: p.id, edited: p.last_edited_time, render: () => env.render.page(p, version) });
  }
  if (filter?.value !== 'page') {
    if (version === '2022-06-28') {
      for (const db of env.data.databases)
        if (!db.in_trash && db.title.toLowerCase().includes(needle))
          hits.push({
            id: db.id,
            edited: db.last_edited_time,
            render: () => env.render.database(db, version),
          });
    } else {
      for (const ds of env.data.dataSources)
        if (!ds.in_trash && ds.title.toLowerCase().includes(needle))
          hits.push({ id: ds.id, edited: ds.last_edited_time, render: () => env.render.dataSource(ds) });
    }
  }
  const sign = sort?.direction === 'ascending' ? 1 : -1;
  hits.sort((a, b) => sign * (a.edited - b.edited) || (a.id < b.id ? -1 : 1));
  const type = version === '2022-06-28' ? 'page_or_database' : 'page_or_data_source';
  return listAnswer(env, body, hits, type, (h) => h.render());
}

export function queryDataSource(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const ds = env.data.dataSource(id as string);
  if (ds === undefined) return notFound('data source', id as string);
  let rows = env.data.pages.filter(
    (p) => p.parent.type === 'data_source_id' && p.parent.data_source_id === ds.id && !p.in_trash,
  );
  if (req.body.filter !== undefined) {
    const test = compileFilter(req.body.filter, 'body.filter');
    if (isAnswer(test)) return test;
    rows = rows.filter(test);
  }
  const sorts = req.body.sorts ?? [];
  if (!Array.isArray(sorts)) return invalid('body failed validation: body.sorts should be an array.');
  const keys: Array<(p: PageRec) => string | number> = [];
  const signs: number[] = [];
  for (const [i, s] of sorts.entries()) {
    const { property, timestamp, direction } = (s ?? {}) as Record<string, unknown>;
    if (direction !== 'ascending' && direction !== 'descending')
      return invalid(
        `body failed validation: body.sorts[${i}].direction should be "ascending" or "descending".`,
      );
    const type = timestamp ?? PROPERTY_TYPES[propertyName(property) ?? ''];
    const key = type === undefined ? undefined : sortKey(String(type), propertyName(property));
    if (key === undefined)
      return invalid(`Could not find sort property with name or id: ${String(property ?? timestamp)}`);
    keys.push(key);
    signs.push(direction === 'ascending' ? 1 : -1);
  }
  rows = [...rows].sort((a, b) => {
    for (const [i, key] of keys.entries()) {
      const x = key(a);
      const y = key(b);
      if (x !== y) return (x < y ? -1 : 1) * (signs[i] as number);
    }
    return a.created_time - b.created_time || (a.id < b.id ? -1 : 1);
  });
  const type = 'page_or_data_source';
  return listAnswer(env, req.body, rows, type, (p) =>
    filterProperties(env.render.page(p, req.version), req.query),
  );
}

function propertyName(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  if (raw in PROPERTY_TYPES) return raw;
  return Object.keys(PROPERTY_IDS).find(
    (name) => PROPERTY_IDS[name] === raw || decodeURIComponent(PROPERTY_IDS[name] as string) === raw,
  );
}

function sortKey(type: string, name: string | undefined): ((p: PageRec) => string | number) | undefined {
  if (type === 'created_time') return (p) => p.created_time;
  if (type === 'last_edited_time') return (p) => p.last_edited_time;
  if (type === 'title') return (p) => p.title.toLowerCase();
  if (name === 'Status') return (p) => p.row?.Status ?? '';
  if (name === 'Due') return (p) => p.row?.Due ?? '';
  if (name === 'Done') return (p) => (p.row?.Done ? 1 : 0);
  return undefined;
}

type Test = (p: PageRec) => boolean;

/** A filter object as a predicate, or the validation error Notion would answer for it. */
function compileFilter(raw: unknown, at: string): Test | Answer {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return invalid(`body failed validation: ${at} should be an object.`);
  const f = raw as Record<string, unknown>;
  for (const op of ['and', 'or'] as const) {
    if (f[op] === undefined) continue;
    if (!Array.isArray(f[op])) return invalid(`body failed validation: ${at}.${op} should be an array.`);
    const parts: Test[] = [];
    for (const [i, sub] of (f[op] as unknown[]).entries()) {
      const t = compileFilter(sub, `${at}.${op}[${i}]`);
      if (isAnswer(t)) return t;
      parts.push(t);
    }
    return op === 'and' ? (p) => parts.every((t) => t(p)) : (p) => parts.some((t) => t(p));
  }
  if (f.timestamp === 'created_time' || f.timestamp === 'last_edited_time') {
    const ts = f.timestamp;
    return dateTest(f[ts], `${at}.${ts}`, (p) =>
      ts === 'created_time' ? p.created_time : p.last_edited_time,
    );
  }
  const name = propertyName(f.property);
  if (name === undefined) return invalid(`Could not find property with name or id: ${String(f.property)}`);
  const type = PROPERTY_TYPES[name] as string;
  const condKey = Object.keys(f).find((k) => k !== 'property' && k !== 'type');
  const cond = (condKey === undefined ? undefined : f[condKey]) as Record<string, unknown> | undefined;
  const sameKind = condKey === type || (type === 'title' && condKey === 'rich_text');
  if (!sameKind || typeof cond !== 'object' || cond === null)
    return invalid(`body failed validation: ${at}.${type} should be defined, instead was \`undefined\`.`);
  const [op, value] = Object.entries(cond)[0] ?? [];
  const where = `${at}.${type}`;
  switch (type) {
    case 'title':
      return textTest(op, value, where, (p) => p.title);
    case 'select':
      return textTest(op, value, where, (p) => p.row?.Status ?? '');
    case 'checkbox':
      if (typeof value !== 'boolean' || (op !== 'equals' && op !== 'does_not_equal'))
        return invalid(
          `body failed validation: ${where} should be { equals: boolean } or { does_not_equal: boolean }.`,
        );
      return (p) => (p.row?.Done === value) === (op === 'equals');
    case 'multi_select':
    case 'people': {
      const list = (p: PageRec) => (type === 'people' ? (p.row?.Owner ?? []) : (p.row?.Tags ?? []));
      if (op === 'is_empty') return (p) => list(p).length === 0;
      if (op === 'is_not_empty') return (p) => list(p).length > 0;
      if (typeof value !== 'string' || (op !== 'contains' && op !== 'does_not_contain'))
        return invalid(
          `body failed validation: ${where} should be { contains: string } or { does_not_contain: string }.`,
        );
      return (p) => list(p).includes(value) === (op === 'contains');
    }
    case 'date':
      return dateTest(cond, where, (p) => (p.row?.Due ? Date.parse(p.row.Due) : undefined));
    default:
      return dateTest(cond, where, (p) => (type === 'created_time' ? p.created_time : p.last_edited_time));
  }
}

function textTest(
  op: string | undefined,
  value: unknown,
  where: string,
  get: (p: PageRec) => string,
): Test | Answer {
  if (op === 'is_empty') return (p) => get(p) === '';
  if (op === 'is_not_empty') return (p) => get(p) !== '';
  if (typeof value !== 'string') return invalid(`body failed validation: ${where}.${op} should be a string.`);
  const v = value.toLowerCase();
  const ops: Record<string, (s: string) => boolean> = {
    equals: (s) => s === value,
    does_not_equal: (s) => s !== value,
    contains: (s) => s.toLowerCase().includes(v),
    does_not_contain: (s) => !s.toLowerCase().includes(v),
    starts_with: (s) => s.toLowerCase().startsWith(v),
    ends_with: (s) => s.toLowerCase().endsWith(v),
  };
  const test = ops[op ?? ''];
  if (test === undefined)
    return invalid(`body failed validation: ${where}.${op} is not a supported condition.`);
  return (p) => test(get(p));
}

/** Date conditions; a date without a time compares whole (UTC) days, like Notion's date filters. */
function dateTest(raw: unknown, where: string, get: (p: PageRec) => number | undefined): Test | Answer {
  if (typeof raw !== 'object' || raw === null)
    return invalid(`body failed validation: ${where} should be an object.`);
  const [op, value] = Object.entries(raw as Record<string, unknown>)[0] ?? [];
  if (op === 'is_empty') return (p) => get(p) === undefined;
  if (op === 'is_not_empty') return (p) => get(p) !== undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    return invalid(`body failed validation: ${where}.${op} should be a valid ISO 8601 date string.`);
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value as string);
  const norm = (t: number) => (dayOnly ? Math.floor(t / 86_400_000) * 86_400_000 : t);
  const ops: Record<string, (t: number) => boolean> = {
    equals: (t) => norm(t) === ms,
    before: (t) => norm(t) < ms,
    after: (t) => norm(t) > ms,
    on_or_before: (t) => norm(t) <= ms,
    on_or_after: (t) => norm(t) >= ms,
  };
  const test = ops[op ?? ''];
  if (test === undefined)
    return invalid(`body failed validation: ${where}.${op} is not a supported condition.`);
  return (p) => {
    const t = get(p);
    return t !== undefined && test(t);
  };
}
