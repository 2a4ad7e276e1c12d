// The part of SOQL and SOSL the fake runs (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/):
//   SELECT f1, f2 | FIELDS(STANDARD) FROM Object [WHERE f op value [AND ...]] [ORDER BY f [ASC|DESC]] [LIMIT n]
//   FIND {terms} [IN ALL|NAME|EMAIL|PHONE FIELDS] RETURNING Object[(f1, f2)] [LIMIT n]
// Values: 'text', true/false, null, numbers, dates and datetimes (2026-01-05T09:00:00Z, or with an offset).
// What it can't parse is Salesforce's 400 MALFORMED_QUERY; an unknown object INVALID_TYPE; an unknown field
// INVALID_FIELD, each as the array Salesforce answers.
import type { Dataset, Row, Value } from './dataset.ts';
import { errorBody, type SalesforceError } from './wire.ts';

export type Outcome = { rows: Row[]; type: string } | { error: SalesforceError[] };

interface Condition {
  field: string;
  op: string;
  value: Value;
}

const SELECT =
  /^SELECT\s+(.+?)\s+FROM\s+([A-Za-z_]\w*)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+([A-Za-z_]\w*)(?:\s+(ASC|DESC))?)?(?:\s+LIMIT\s+(\d+))?\s*$/is;
const CONDITION = /^([A-Za-z_]\w*)\s*(=|!=|>=|<=|>|<)\s*(.+)$/s;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/;

const malformed = (why: string) => ({ error: errorBody('MALFORMED_QUERY', why) });

function literal(text: string): Value | undefined {
  const t = text.trim();
  if (/^'(?:[^'\\]|\\.)*'$/.test(t)) return t.slice(1, -1).replace(/\\(.)/g, '$1');
  if (/^true$/i.test(t)) return true;
  if (/^false$/i.test(t)) return false;
  if (/^null$/i.test(t)) return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (DATETIME.test(t) || /^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  return undefined;
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string' && DATETIME.test(a) && DATETIME.test(b))
    return (
      Date.parse(a.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) -
      Date.parse(b.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
    );
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function holds(row: Row, c: Condition): boolean {
  const v = row[c.field] ?? null;
  if (c.value === null) return c.op === '=' ? v === null : c.op === '!=' ? v !== null : false;
  if (v === null) return c.op === '!=';
  const d = compare(v, c.value);
  switch (c.op) {
    case '=':
      return d === 0;
    case '!=':
      return d !== 0;
    case '>':
      return d > 0;
    case '>=':
      return d >= 0;
    case '<':
      return d < 0;
    default:
      return d <= 0;
  }
}

function project(row: Row, fields: string[] | 'all'): Row {
  if (fields === 'all') return { ...row };
  const out: Row = {};
  for (const f of fields) out[f] = row[f] ?? null;
  return out;
}

/** The fields a record of `type` has: the first seeded record's. */
function known(data: Dataset, type: string): Set<string> {
  return new Set(Object.keys(data.of(type)?.[0] ?? {}));
}

function selected(list: string, fieldsOf: Set<string>): string[] | 'all' | SalesforceError[] {
  if (/^FIELDS\(STANDARD\)$/i.test(list.trim())) return 'all';
  const fields = list.split(',').map((f) => f.trim());
  const byLower = new Map([...fieldsOf].map((f) => [f.toLowerCase(), f]));
  const out: string[] = [];
  for (const f of fields) {
    const name = byLower.get(f.toLowerCase());
    if (name === undefined)
      return errorBody(
        'INVALID_FIELD',
        `No such column '${f}' on entity. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name.`,
      );
    out.push(name);
  }
  return out;
}

export function runSoql(data: Dataset, q: string): Outcome {
  const m = SELECT.exec(q.trim());
  if (m === null) return malformed(`unexpected token: '${q.trim().split(/\s+/)[0] ?? ''}'`);
  const [, list = '', type = '', where, orderBy, dir, limit] = m;
  const all = data.of(type);
  if (all === undefined)
    return { error: errorBody('INVALID_TYPE', `sObject type '${type}' is not supported.`) };
  const fieldsOf = known(data, type);
  const fields = selected(list, fieldsOf);
  if (Array.isArray(fields) && typeof fields[0] === 'object') return { error: fields as SalesforceError[] };
  const conditions: Condition[] = [];
  for (const part of where === undefined ? [] : where.split(/\s+AND\s+/i)) {
    const c = CONDITION.exec(part.trim());
    const value = c?.[3] === undefined ? undefined : literal(c[3]);
    if (c === null || value === undefined) return malformed(`unexpected token in WHERE: '${part.trim()}'`);
    if (!fieldsOf.has(c[1] as string))
      return { error: errorBody('INVALID_FIELD', `No such column '${c[1]}' on entity '${type}'.`) };
    conditions.push({ field: c[1] as string, op: c[2] as string, value });
  }
  let rows = all.filter((r) => conditions.every((c) => holds(r, c)));
  if (orderBy !== undefined) {
    if (!fieldsOf.has(orderBy))
      return { error: errorBody('INVALID_FIELD', `No such column '${orderBy}' on entity '${type}'.`) };
    const sign = dir?.toUpperCase() === 'DESC' ? -1 : 1;
    rows = [...rows].sort((a, b) => sign * compare(a[orderBy] ?? '', b[orderBy] ?? ''));
  }
  if (limit !== undefined) rows = rows.slice(0, Number(limit));
  return { type, rows: rows.map((r) => project(r, fields as string[] | 'all')) };
}

const FIND =
  /^FIND\s+\{([^}]+)\}(?:\s+IN\s+(ALL|NAME|EMAIL|PHONE)\s+FIELDS)?\s+RETURNING\s+([A-Za-z_]\w*)(?:\s*\(([^)]*)\))?(?:\s+LIMIT\s+(\d+))?\s*$/is;
const NAME_FIELDS = ['Name', 'Title', 'Subject', 'FirstName', 'LastName', 'Company', 'CaseNumber'];

/** SOSL: records whose searchable text holds every term (a trailing * matches any ending). */
export function runSosl(data: Dataset, q: string): Outcome {
  const m = FIND.exec(q.trim());
  if (m === null) return malformed('FIND clause must be of the form FIND {terms} ... RETURNING Object');
  const [, terms = '', scope = 'ALL', type = '', list, limit] = m;
  const all = data.of(type);
  if (all === undefined)
    return { error: errorBody('INVALID_TYPE', `sObject type '${type}' is not supported.`) };
  const fields = list === undefined || list.trim() === '' ? ['Id'] : selected(list, known(data, type));
  if (Array.isArray(fields) && typeof fields[0] === 'object') return { error: fields as SalesforceError[] };
  const words = terms.trim().replace(/^"|"$/g, '').toLowerCase().split(/\s+/);
  const searched = (row: Row) =>
    Object.entries(row)
      .filter(
        ([k, v]) =>
          typeof v === 'string' && k !== 'Id' && (scope.toUpperCase() !== 'NAME' || NAME_FIELDS.includes(k)),
      )
      .map(([, v]) => String(v).toLowerCase())
      .join(' ');
  const match = (text: string) =>
    words.every((w) =>
      w.endsWith('*')
        ? text.includes(w.slice(0, -1))
        : new RegExp(`(^|\\W)${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\W|$)`).test(text),
    );
  let rows = all.filter((r) => match(searched(r)));
  if (limit !== undefined) rows = rows.slice(0, Number(limit));
  return { type, rows: rows.map((r) => project(r, fields as string[] | 'all')) };
}
