// Linear's list conventions ("Pagination" and "Filtering" on linear.app/developers), applied to the fake's
// records: Relay connections `first`/`after`/`last`/`before` → `{edges {cursor node}, nodes, pageInfo
// {hasNextPage hasPreviousPage startCursor endCursor}}`, 50 records when neither `first` nor `last` is given, at
// most 250; a record's cursor is its id. `orderBy` (PaginationOrderBy) is `createdAt` (the default) or
// `updatedAt`, newest first. `filter` objects combine field comparators (IDComparator, StringComparator,
// DateComparator with ISO-8601 dates or durations like `-P2W`, NumberComparator, BooleanComparator, their
// Nullable* forms with `null: true|false`), relation filters (`issue: {id: {eq}}`, `team: {key: {eq}}`) and
// `and`/`or` lists. A filter member the fake has no accessor for is answered as not implemented rather than
// ignored, so a definition never silently gets an unfiltered list.
import { FakeNotImplemented, LinearApiError } from './wire.ts';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  orderBy?: string | null;
  filter?: Record<string, unknown> | null;
}

export type Comparator = 'id' | 'string' | 'date' | 'number' | 'boolean';

/** How a filter member reads a record: a comparable value, or a related record with its own accessors. */
export type FieldAccess<T> =
  | { cmp: Comparator; get: (r: T) => unknown }
  | { rel: () => Accessors<unknown>; get: (r: T) => unknown };

// biome-ignore lint/suspicious/noExplicitAny: accessors of differently-typed records share one map type
export type Accessors<T> = Record<string, FieldAccess<T> | undefined> & { __brand?: any };

export interface ListContext {
  /** "now" for relative (duration) dates: the dataset's write clock */
  now: number;
  defaultFirst: number;
  maxFirst: number;
}

export const MAX_PAGE = 250;

const DURATION =
  /^([+-])?P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** A DateTimeOrDuration argument as epoch ms: an ISO date(-time), or a duration from now (negative = past). */
export function parseDateArg(raw: unknown, now: number): number {
  if (typeof raw !== 'string') throw invalidFilter(`expected a date or duration, got ${JSON.stringify(raw)}`);
  const m = DURATION.exec(raw);
  if (m !== null && raw.length > 1 && raw !== 'PT') {
    const [, sign, y, mo, w, d, h, mi, s] = m;
    const n = (v: string | undefined) => (v === undefined ? 0 : Number(v));
    const ms =
      n(y) * 365 * 86_400_000 +
      n(mo) * 30 * 86_400_000 +
      n(w) * 7 * 86_400_000 +
      n(d) * 86_400_000 +
      n(h) * 3_600_000 +
      n(mi) * 60_000 +
      n(s) * 1000;
    return sign === '-' ? now - ms : now + ms;
  }
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw invalidFilter(`invalid date "${raw}"`);
  return ms;
}

function invalidFilter(detail: string): LinearApiError {
  return new LinearApiError('input', 'Argument Validation Error', `Invalid filter: ${detail}`);
}

function compare(value: unknown, cmp: Comparator, ops: Record<string, unknown>, now: number, at: string) {
  const norm = (v: unknown): unknown => {
    if (v === null || v === undefined) return null;
    if (cmp === 'date') return typeof v === 'number' ? v : parseDateArg(v, now);
    return v;
  };
  const val = norm(value);
  const text = typeof val === 'string' ? val : '';
  const lower = text.toLowerCase();
  for (const [op, rawArg] of Object.entries(ops)) {
    if (rawArg === undefined) continue;
    if (op === 'null') {
      if ((val === null) !== rawArg) return false;
      continue;
    }
    const arg = Array.isArray(rawArg) ? rawArg.map(norm) : norm(rawArg);
    const argText = typeof arg === 'string' ? arg.toLowerCase() : '';
    let ok: boolean;
    switch (op) {
      case 'eq':
        ok = val === arg;
        break;
      case 'neq':
        ok = val !== arg;
        break;
      case 'in':
        ok = (arg as unknown[]).includes(val);
        break;
      case 'nin':
        ok = !(arg as unknown[]).includes(val);
        break;
      case 'gt':
        ok = val !== null && (val as number) > (arg as number);
        break;
      case 'gte':
        ok = val !== null && (val as number) >= (arg as number);
        break;
      case 'lt':
        ok = val !== null && (val as number) < (arg as number);
        break;
      case 'lte':
        ok = val !== null && (val as number) <= (arg as number);
        break;
      case 'eqIgnoreCase':
        ok = val !== null && lower === argText;
        break;
      case 'neqIgnoreCase':
        ok = lower !== argText;
        break;
      case 'contains':
        ok = val !== null && text.includes(arg as string);
        break;
      case 'notContains':
        ok = !text.includes(arg as string);
        break;
      case 'containsIgnoreCase':
      case 'containsIgnoreCaseAndAccent':
        ok = val !== null && lower.includes(argText);
        break;
      case 'notContainsIgnoreCase':
        ok = !lower.includes(argText);
        break;
      case 'startsWith':
        ok = val !== null && text.startsWith(arg as string);
        break;
      case 'startsWithIgnoreCase':
        ok = val !== null && lower.startsWith(argText);
        break;
      case 'notStartsWith':
        ok = !text.startsWith(arg as string);
        break;
      case 'endsWith':
        ok = val !== null && text.endsWith(arg as string);
        break;
      case 'notEndsWith':
        ok = !text.endsWith(arg as string);
        break;
      default:
        throw new FakeNotImplemented(`linear fake: filter comparator ${at}.${op} is not implemented`);
    }
    if (!ok) return false;
  }
  return true;
}

/** Does the record pass the filter? `at` names the filter's position for messages. */
export function matches<T>(
  record: T,
  filter: Record<string, unknown>,
  fields: Accessors<T>,
  now: number,
  at = 'filter',
): boolean {
  for (const [key, sub] of Object.entries(filter)) {
    if (sub === undefined || sub === null) continue;
    if (key === 'and') {
      if (!(sub as Record<string, unknown>[]).every((f) => matches(record, f, fields, now, at))) return false;
      continue;
    }
    if (key === 'or') {
      if (!(sub as Record<string, unknown>[]).some((f) => matches(record, f, fields, now, at))) return false;
      continue;
    }
    if (key === 'null') {
      // Nullable*Filter at this level: the record itself (resolved by the caller) is not null here.
      if (sub === true) return false;
      continue;
    }
    const access = fields[key];
    if (access === undefined)
      throw new FakeNotImplemented(`linear fake: filter field ${at}.${key} is not implemented`);
    const value = access.get(record);
    const ops = sub as Record<string, unknown>;
    if ('cmp' in access) {
      if (!compare(value, access.cmp, ops, now, `${at}.${key}`)) return false;
      continue;
    }
    // A relation: `null: true` asks for no related record; otherwise the related record must match.
    if (value === null || value === undefined) {
      if (ops.null !== true) return false;
      continue;
    }
    if (ops.null === true) return false;
    if (!matches(value, ops, access.rel(), now, `${at}.${key}`)) return false;
  }
  return true;
}

interface Timestamped {
  id: string;
  createdAt: number;
  updatedAt: number;
}

/** Filter, order (newest first by createdAt or updatedAt) and page a list into a Relay connection. */
export function connection<T extends Timestamped>(
  all: readonly T[],
  args: ConnectionArgs,
  fields: Accessors<T>,
  ctx: ListContext,
  render: (record: T) => unknown,
): Record<string, unknown> {
  const key = args.orderBy ?? 'createdAt';
  if (key !== 'createdAt' && key !== 'updatedAt')
    throw new FakeNotImplemented(`linear fake: orderBy ${key} is not implemented`);
  for (const [name, n] of [
    ['first', args.first],
    ['last', args.last],
  ] as const) {
    if (n != null && (n < 0 || n > ctx.maxFirst))
      throw new LinearApiError(
        'input',
        'Argument Validation Error',
        `${name} must be between 0 and ${ctx.maxFirst}`,
        'INPUT_ERROR',
      );
  }
  const filtered = args.filter ? all.filter((r) => matches(r, args.filter ?? {}, fields, ctx.now)) : [...all];
  const sorted = filtered.sort((a, b) => b[key] - a[key] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const indexOf = (cursor: string): number => {
    const i = sorted.findIndex((r) => r.id === cursor);
    if (i === -1)
      throw new LinearApiError(
        'input',
        'Argument Validation Error',
        `Invalid cursor: ${cursor}`,
        'INPUT_ERROR',
      );
    return i;
  };
  let start = args.after != null ? indexOf(args.after) + 1 : 0;
  let end = args.before != null ? indexOf(args.before) : sorted.length;
  if (end < start) end = start;
  if (args.first != null || args.last == null) end = Math.min(end, start + (args.first ?? ctx.defaultFirst));
  if (args.last != null) start = Math.max(start, end - args.last);
  const page = sorted.slice(start, end);
  const edges = page.map((r) => ({ cursor: r.id, node: render(r) }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < sorted.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.id ?? null,
      endCursor: page.at(-1)?.id ?? null,
    },
  };
}
