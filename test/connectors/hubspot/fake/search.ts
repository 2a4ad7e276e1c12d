// POST /crm/v3/objects/{objectType}/search, after HubSpot's "Search the CRM" guide and the Search API reference
// (operation doSearch, body `PublicObjectSearchRequest`, answer `CollectionResponseWithTotal...ForwardPaging`).
//   - Filters: `filterGroups` are ORed, the filters of a group ANDed; at most 5 groups, 10 filters per group
//     and 25 in all (limits raised in 2024). Operators EQ NEQ LT LTE GT GTE BETWEEN(value, highValue) IN NOT_IN
//     (values) HAS_PROPERTY NOT_HAS_PROPERTY CONTAINS_TOKEN NOT_CONTAINS_TOKEN (`*` wildcards). String matches
//     ignore case; date-time properties take epoch milliseconds or ISO 8601.
//   - `query` looks for the text in the object's default searchable properties; `sorts` are
//     `{propertyName, direction: ASCENDING|DESCENDING}` (or "name"/"-name").
//   - Paging: `limit` (default 10, at most 200) and `after`, the offset of the next page, answered as
//     `paging.next.after` (no link) while more results remain. `total` counts every match. A query can page
//     through at most 10,000 results; asking beyond that is a 400.
//   - Archived records are never searched; search answers carry no X-HubSpot-RateLimit-* headers (index.ts).
import type { CrmRecord, Dataset } from './dataset.ts';
import { type ObjectType, propertyOf } from './model.ts';
import { renderRecord } from './render.ts';
import { type Answer, parseJsonObject, validation } from './wire.ts';

const OPERATORS = new Set([
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
]);
const SEARCH_MAX = 200;
const RESULT_CAP = 10_000;

interface Filter {
  propertyName: string;
  operator: string;
  value?: unknown;
  highValue?: unknown;
  values?: unknown[];
}

interface Sort {
  propertyName: string;
  descending: boolean;
}

export function searchObjects(data: Dataset, type: ObjectType, raw: string): Answer {
  const body = parseJsonObject(raw === '' ? '{}' : raw);
  if (body === undefined || body === 'invalid')
    return validation('Invalid input JSON on line 1, column 1: Cannot build PublicObjectSearchRequest');
  const groups = parseGroups(body.filterGroups);
  if (typeof groups === 'string') return validation(groups);
  const sorts = parseSorts(body.sorts);
  if (typeof sorts === 'string') return validation(sorts);
  const limit = body.limit === undefined || body.limit === null ? 10 : Number(body.limit);
  if (!Number.isInteger(limit) || limit < 0)
    return validation(`limit must be a non-negative integer, got ${String(body.limit)}`);
  if (limit > SEARCH_MAX) return validation(`limit must be at most ${SEARCH_MAX}, got ${limit}`);
  const rawAfter = body.after === undefined || body.after === null ? '0' : String(body.after);
  if (!/^\d+$/.test(rawAfter)) return validation(`Invalid paging cursor: ${rawAfter}`);
  const offset = Number(rawAfter);
  if (offset + limit > RESULT_CAP)
    return validation(
      `Paging beyond ${RESULT_CAP} results is not supported (after=${offset}, limit=${limit}); narrow the query instead`,
    );
  const query = typeof body.query === 'string' ? body.query.trim().toLowerCase() : '';
  const properties = Array.isArray(body.properties)
    ? body.properties.filter((p): p is string => typeof p === 'string')
    : [];

  const matches = data
    .all(type)
    .filter((r) => !r.archived)
    .filter((r) => groups.length === 0 || groups.some((g) => g.every((f) => test(type, r, f))))
    .filter(
      (r) =>
        query === '' ||
        type.queryProperties.some((n) => (r.properties[n] ?? '').toLowerCase().includes(query)),
    )
    .sort((x, y) => compareBy(type, x, y, sorts));
  const page = matches.slice(offset, offset + limit);
  const answer: Record<string, unknown> = {
    total: matches.length,
    results: page.map((r) => renderRecord(data, type, r, { properties })),
  };
  const next = offset + limit;
  if (limit > 0 && next < matches.length && next < RESULT_CAP)
    answer.paging = { next: { after: String(next) } };
  return { status: 200, body: answer };
}

function parseGroups(raw: unknown): Filter[][] | string {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return 'filterGroups must be an array';
  if (raw.length > 5) return `Too many filter groups (${raw.length}); the maximum is 5`;
  let total = 0;
  const groups: Filter[][] = [];
  for (const group of raw) {
    const filters = (group as { filters?: unknown } | null)?.filters;
    if (!Array.isArray(filters)) return 'Each filter group must have a filters array';
    if (filters.length > 10) return `Too many filters in a group (${filters.length}); the maximum is 10`;
    total += filters.length;
    for (const f of filters as Filter[]) {
      if (typeof f?.propertyName !== 'string' || f.propertyName === '')
        return 'Each filter must name a propertyName';
      if (!OPERATORS.has(String(f.operator))) return `Invalid operator: ${String(f.operator)}`;
      if ((f.operator === 'IN' || f.operator === 'NOT_IN') && !Array.isArray(f.values))
        return `The ${f.operator} operator needs a values array`;
      if (f.operator === 'BETWEEN' && (f.value === undefined || f.highValue === undefined))
        return 'The BETWEEN operator needs value and highValue';
    }
    groups.push(filters as Filter[]);
  }
  if (total > 25) return `Too many filters (${total}); the maximum is 25`;
  return groups;
}

function parseSorts(raw: unknown): Sort[] | string {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return 'sorts must be an array';
  const out: Sort[] = [];
  for (const s of raw) {
    if (typeof s === 'string') {
      const descending = s.startsWith('-');
      out.push({ propertyName: descending ? s.slice(1) : s, descending });
      continue;
    }
    const name = (s as { propertyName?: unknown } | null)?.propertyName;
    const direction = (s as { direction?: unknown }).direction ?? 'ASCENDING';
    if (typeof name !== 'string') return 'Each sort must name a propertyName';
    if (direction !== 'ASCENDING' && direction !== 'DESCENDING')
      return `Invalid sort direction: ${String(direction)}`;
    out.push({ propertyName: name, descending: direction === 'DESCENDING' });
  }
  return out;
}

type Comparable = number | string;

/** A value as the property's type compares it: dates and numbers as numbers, text lower-cased. */
function comparable(type: ObjectType, name: string, value: unknown): Comparable | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const kind = propertyOf(type, name)?.type;
  const text = String(value);
  if (kind === 'datetime' || kind === 'date') {
    const ms = /^-?\d+$/.test(text) ? Number(text) : Date.parse(text);
    return Number.isNaN(ms) ? text.toLowerCase() : ms;
  }
  if (kind === 'number') {
    const n = Number(text);
    return Number.isNaN(n) ? text.toLowerCase() : n;
  }
  return text.toLowerCase();
}

function test(type: ObjectType, record: CrmRecord, f: Filter): boolean {
  const name = f.propertyName;
  const raw = record.properties[name];
  const has = raw !== undefined && raw !== null && raw !== '';
  const mine = comparable(type, name, raw);
  const theirs = comparable(type, name, f.value);
  switch (f.operator) {
    case 'HAS_PROPERTY':
      return has;
    case 'NOT_HAS_PROPERTY':
      return !has;
    case 'EQ':
      return mine !== undefined && mine === theirs;
    case 'NEQ':
      return mine !== theirs;
    case 'IN':
      return mine !== undefined && (f.values ?? []).some((v) => comparable(type, name, v) === mine);
    case 'NOT_IN':
      return !(f.values ?? []).some((v) => comparable(type, name, v) === mine);
    case 'CONTAINS_TOKEN':
      return has && containsToken(String(raw), String(f.value ?? ''));
    case 'NOT_CONTAINS_TOKEN':
      return !has || !containsToken(String(raw), String(f.value ?? ''));
  }
  if (mine === undefined || theirs === undefined || typeof mine !== typeof theirs) return false;
  switch (f.operator) {
    case 'LT':
      return mine < theirs;
    case 'LTE':
      return mine <= theirs;
    case 'GT':
      return mine > theirs;
    case 'GTE':
      return mine >= theirs;
    case 'BETWEEN': {
      const high = comparable(type, name, f.highValue);
      return high !== undefined && typeof high === typeof mine && mine >= theirs && mine <= high;
    }
  }
  return false;
}

/** A whole-word match (any token of the value, or the whole value), `*` standing for any characters. */
function containsToken(value: string, token: string): boolean {
  const pattern = new RegExp(
    `^${token
      .toLowerCase()
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  const lower = value.toLowerCase();
  return pattern.test(lower) || lower.split(/[\s,;:.@/_-]+/).some((t) => t !== '' && pattern.test(t));
}

function compareBy(type: ObjectType, x: CrmRecord, y: CrmRecord, sorts: Sort[]): number {
  for (const s of sorts) {
    const a = comparable(type, s.propertyName, x.properties[s.propertyName]);
    const b = comparable(type, s.propertyName, y.properties[s.propertyName]);
    if (a === b) continue;
    // records without a value sort last whatever the direction
    if (a === undefined) return 1;
    if (b === undefined) return -1;
    const order = a < b ? -1 : 1;
    return s.descending ? -order : order;
  }
  return Number(x.id) - Number(y.id);
}
