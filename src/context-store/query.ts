/**
 * The Context Store search compiler: turns a client's `query` (`filter`, `sort`) plus a page into one SQL
 * statement over an entity's index table. Pure: it touches no database.
 *
 * Security rests on two rules kept here and nowhere else: every value of the request is a bound parameter,
 * and every identifier comes from the layout (a request's field name is only ever a key to look a field up
 * with; an unknown name is an error). The statement always restricts to one connector, which is what
 * isolates tenants sharing an index table.
 *
 * Logic is two-valued: a leaf about a missing value (SQL NULL) is false, and `not` of it is true. Without a
 * `not` SQL's NULL already acts as false in WHERE (AND/OR are monotone), so only `not` needs `IS NOT TRUE`.
 *
 * What differs between databases (placeholders, JSON arrays, full text, helper functions) is behind
 * SearchDialect; `sqliteSearchDialect` is the one in use.
 */
import { invalidField } from '../core/errors.ts';
import {
  BASE_COLUMNS,
  type ElementField,
  type EntityLayout,
  type IndexedField,
  quoteIdent,
  type ScalarFieldType,
  timestampMs,
} from './layout.ts';

export interface SearchRequest {
  filter?: unknown;
  sort?: unknown;
  /** already validated integers */
  limit: number;
  offset: number;
}

/** `sql` selects the columns `rid` and `data` (compileCount: `count`); `params` are its bound values in order. */
export interface CompiledSearch {
  sql: string;
  params: SqlValue[];
}

export const SEARCH_LIMITS = {
  depth: 16,
  leaves: 200,
  inValues: 1000,
  sortKeys: 4,
  stringLength: 4096,
  likeLength: 512,
  words: 32,
} as const;

// ---- SQL fragments: text and bound values kept apart until rendering, so no value can become SQL text.

export type SqlValue = string | number | null;
type Part = string | { value: SqlValue };

export class Sql {
  constructor(readonly parts: readonly Part[]) {}
}

/** A fragment from a template whose interpolations are fragments (use `bind` for values, `raw` for trusted text). */
export function sql(strings: TemplateStringsArray, ...args: Sql[]): Sql {
  const parts: Part[] = [];
  strings.forEach((s, i) => {
    if (s) parts.push(s);
    const arg = args[i];
    if (arg) parts.push(...arg.parts);
  });
  return new Sql(parts);
}
export const raw = (text: string): Sql => new Sql([text]);
export const bind = (value: SqlValue): Sql => new Sql([{ value }]);
export function join(items: readonly Sql[], separator: string): Sql {
  return new Sql(items.flatMap((item, i) => (i === 0 ? item.parts : [separator, ...item.parts])));
}

/** The index table's alias in every statement. */
const T = 't';
const tableCol = (name: string) => raw(`${T}.${quoteIdent(name)}`);
/** A checked identifier without quotes, for places that take bare names (JSON paths, FTS5 column filters). */
const bare = (name: string) => quoteIdent(name).slice(1, -1);

// ---- words, as `fuzzy` and `keyword` see them

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NON_ASCII = /[\u0080-\uffff]/;

/** A word compared case- and diacritic-insensitively. */
function foldWord(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(/\p{M}+/gu, '') : lower;
}

/** The lower-cased words of a search value (runs of letters and digits), leaving out any that fold to nothing. */
export function searchWords(value: string): string[] {
  return [...value.toLowerCase().matchAll(WORD)].map((m) => m[0]).filter((w) => foldWord(w) !== '');
}

let lastPattern = '';
let lastPatternWords: string[] = [];

/** Do the space-separated `pattern` words occur in `text` as whole words, in that order (others may come between)? */
export function wordsInOrder(text: unknown, pattern: unknown): boolean {
  if (typeof text !== 'string' || typeof pattern !== 'string') return false;
  if (pattern !== lastPattern) {
    lastPatternWords = pattern.split(' ').map(foldWord).filter(Boolean);
    lastPattern = pattern;
  }
  const words = lastPatternWords;
  if (words.length === 0) return false;
  let i = 0;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    if (foldWord(m[0]) === words[i] && ++i === words.length) return true;
  }
  return false;
}

/** The SQL functions `sqliteSearchDialect` calls; `registerSearchFunctions` installs them on each connection. */
export const SQLITE_SEARCH_FUNCTIONS = {
  ces_words_in_order: (text: unknown, pattern: unknown): number => (wordsInOrder(text, pattern) ? 1 : 0),
  ces_timestamp_ms: (value: unknown): number | null => timestampMs(value) ?? null,
  ces_lower: (value: unknown): unknown => (typeof value === 'string' ? value.toLowerCase() : value),
} as const;

// ---- dialect

/** One full-text leaf: the words must all occur (`all`) or any of them (`any`) in the column. */
export interface FullTextTerm {
  column: string;
  words: string[];
  mode: 'all' | 'any';
}

/** Full-text leaves that must all hold, in the index of one connector. */
export interface FullTextSearch {
  layout: EntityLayout;
  /** the connector's key in the index tables */
  connectorKey: number;
  terms: readonly FullTextTerm[];
}

export interface SearchDialect {
  /** The text of the n-th (1-based) placeholder. */
  placeholder(n: number): string;
  /** `expr` equals one of `values`, bound so that the SQL text does not depend on how many there are. */
  inList(expr: Sql, values: readonly SqlValue[]): Sql;
  /** Case-insensitive LIKE; `pattern` uses `%` as its only wildcard and `\` to escape `_` and `\`. */
  like(expr: Sql, pattern: string): Sql;
  /** Some element (named `alias` inside `predicate`) of the JSON array in `column` satisfies `predicate`. */
  someElement(column: Sql, alias: string, predicate: Sql): Sql;
  /**
   * The value of an element (`path` null) or of a member of an object element, as the column of a field of
   * `type` would hold it (timestamps as epoch ms); NULL when missing or of another JSON type.
   */
  elementValue(alias: string, path: readonly string[] | null, type: ScalarFieldType): Sql;
  /** True for the index rows (`t.rid`) matching all the terms; usable anywhere in a condition. */
  fullTextFilter(search: FullTextSearch): Sql;
  /**
   * Optional: a FROM clause driven by the full-text index (index table aliased `t`), its match condition and
   * its row order column, so that a LIMIT stops reading matches early.
   */
  fullTextScan?(search: FullTextSearch): { from: Sql; where: Sql; rowid: Sql };
  /** True when the words (lower-cased, as `searchWords` gives them) occur in `expr` in order. */
  wordsInOrder(expr: Sql, words: readonly string[]): Sql;
}

const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The full-text table's first column: the connector key as one token (hex of its decimal text), so that a
 * search skips the matches of other connectors sharing the table inside FTS5 instead of looking each up.
 * The index table has it as a virtual generated column so that FTS5 `rebuild` and `integrity-check` work.
 */
export const SQLITE_FTS_CONNECTOR_COLUMN = 'connector_token';
/** The token's SQL for a reference to a connector key; `fts5Query` computes the same in JS. */
export const sqliteConnectorToken = (ref: string) => `hex(${ref})`;

/** FTS5 query text: column-restricted, every word a double-quoted string so FTS syntax in input is inert. */
function fts5Query({ connectorKey, terms }: FullTextSearch): string {
  const token = Buffer.from(String(connectorKey), 'utf8').toString('hex');
  // Isolation rests on the SQL condition on connector_key; this only narrows the matches early.
  const tenant = token ? [`({${SQLITE_FTS_CONNECTOR_COLUMN}} : ${ftsString(token)})`] : [];
  const leaves = terms.map((t) => {
    const words = t.words.map(ftsString).join(t.mode === 'all' ? ' AND ' : ' OR ');
    return `({${bare(t.column)}} : (${words}))`;
  });
  return [...tenant, ...leaves].join(' AND ');
}

function ftsTableOf(layout: EntityLayout): string {
  if (!layout.ftsTable) throw new Error(`${layout.table} has no full-text table`);
  return quoteIdent(layout.ftsTable);
}

export const sqliteSearchDialect: SearchDialect = {
  placeholder: () => '?',
  inList: (expr, values) => sql`${expr} IN (SELECT value FROM json_each(${bind(JSON.stringify(values))}))`,
  like(expr, pattern) {
    // SQLite's LIKE folds ASCII letters only; a pattern with other characters compares lower-cased text.
    if (!NON_ASCII.test(pattern)) return sql`${expr} LIKE ${bind(pattern)} ESCAPE '\\'`;
    return sql`ces_lower(${expr}) LIKE ${bind(pattern.toLowerCase())} ESCAPE '\\'`;
  },
  someElement: (column, alias, predicate) =>
    sql`EXISTS (SELECT 1 FROM json_each(${column}) AS ${raw(quoteIdent(alias))} WHERE ${predicate})`,
  elementValue(alias, path, type) {
    const a = quoteIdent(alias);
    let value = `${a}.value`;
    let jsonType = `${a}.type`;
    if (path) {
      const p = `'$.${path.map(bare).join('.')}'`;
      value = `json_extract(${a}.value, ${p})`;
      jsonType = `json_type(${a}.value, ${p})`;
    }
    const types = {
      string: "'text'",
      text: "'text'",
      timestamp: "'text'",
      integer: "'integer', 'real'",
      number: "'integer', 'real'",
      boolean: "'true', 'false'",
    }[type];
    // CASE evaluates in order: json_type/json_extract never see an element that is not an object (they would fail).
    const guard = path ? `WHEN ${a}.type <> 'object' THEN NULL ` : '';
    const typed = `CASE ${guard}WHEN ${jsonType} IN (${types}) THEN ${value} END`;
    return raw(type === 'timestamp' ? `ces_timestamp_ms(${typed})` : `(${typed})`);
  },
  fullTextFilter(search) {
    const fts = raw(ftsTableOf(search.layout));
    return sql`${raw(T)}.rid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${bind(fts5Query(search))})`;
  },
  fullTextScan(search) {
    const fts = raw(ftsTableOf(search.layout));
    return {
      // CROSS JOIN fixes the loop order: matches outside, index rows looked up by rowid.
      from: sql`${fts} CROSS JOIN ${raw(quoteIdent(search.layout.table))} AS ${raw(T)} ON ${raw(T)}.rid = ${fts}.rowid`,
      where: sql`${fts} MATCH ${bind(fts5Query(search))}`,
      rowid: sql`${fts}.rowid`,
    };
  },
  wordsInOrder: (expr, words) => sql`ces_words_in_order(${expr}, ${bind(words.join(' '))})`,
};

// ---- the condition tree

type Comparison = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';
type Target =
  | { column: IndexedField; type: ScalarFieldType }
  | { element: ElementField; type: ScalarFieldType };
type Node =
  | { kind: 'and' | 'or'; items: Node[] }
  | { kind: 'not'; item: Node }
  | { kind: 'cmp'; op: Comparison; target: Target; value: SqlValue }
  | { kind: 'in'; target: Target; values: SqlValue[] }
  | { kind: 'like'; target: Target; pattern: string }
  | { kind: 'text'; field: IndexedField; words: string[]; mode: 'all' | 'any'; ordered: boolean }
  | { kind: 'contains'; field: IndexedField; value: SqlValue }
  | { kind: 'any'; field: IndexedField; item: Node };

const COMPARISONS: readonly string[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const ORDERED = [...COMPARISONS, 'in'];
const OPS_BY_TYPE: Record<ScalarFieldType, readonly string[]> = {
  string: [...ORDERED, 'like', 'fuzzy', 'keyword'],
  text: ['like', 'fuzzy', 'keyword'],
  integer: ORDERED,
  number: ORDERED,
  timestamp: ORDERED,
  boolean: ['eq', 'neq', 'in'],
};
const LOGICAL = ['and', 'or', 'not'];
const FIELD_OPS = [...ORDERED, 'like', 'fuzzy', 'keyword', 'contains', 'any'];
const ELEMENT_OPS = [...ORDERED, 'like'];
const SORTABLE: readonly string[] = ['string', 'integer', 'number', 'boolean', 'timestamp'];

interface Scope {
  /** the field names' owner, for messages */
  what: string;
  fields: ReadonlyMap<string, { type: string }>;
  operators: readonly string[];
  opsOf(name: string): readonly string[];
  target(name: string): Target;
}

const bad = (path: string, message: string) => invalidField('INVALID_QUERY', path, message);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
const pathKey = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) ? `${path}.${key}` : `${path}[${show(key)}]`;
const jsonKind = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
const EXPECTED: Record<ScalarFieldType, string> = {
  string: 'a string',
  text: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  timestamp: 'an ISO 8601 timestamp string such as "2024-05-01T00:00:00Z"',
};

function tableScope(layout: EntityLayout): Scope {
  return {
    what: `the ${layout.entity} index`,
    fields: layout.fields,
    operators: [...FIELD_OPS, ...LOGICAL],
    opsOf(name) {
      const f = layout.fields.get(name)!;
      if (f.type !== 'array') return OPS_BY_TYPE[f.type];
      return f.items ? ['contains'] : f.properties ? ['any'] : [];
    },
    target(name) {
      const f = layout.fields.get(name)!;
      // An array field only takes `contains` / `any`, which do not compare the column itself.
      return { column: f, type: f.type === 'array' ? 'string' : f.type };
    },
  };
}

function elementScope(field: IndexedField, properties: ReadonlyMap<string, ElementField>): Scope {
  return {
    what: `the elements of ${field.name}`,
    fields: properties,
    operators: [...ELEMENT_OPS, ...LOGICAL],
    opsOf: (name) => OPS_BY_TYPE[properties.get(name)!.type].filter((op) => ELEMENT_OPS.includes(op)),
    target(name) {
      const e = properties.get(name)!;
      return { element: e, type: e.type };
    },
  };
}

class Parser {
  private leaves = 0;

  condition(raw: unknown, path: string, depth: number, scope: Scope): Node {
    if (depth > SEARCH_LIMITS.depth)
      throw bad(path, `conditions nest deeper than ${SEARCH_LIMITS.depth} levels`);
    if (!isObject(raw)) {
      throw bad(
        path,
        `a condition must be an object such as {"eq": {"<field>": <value>}}, not ${jsonKind(raw)}`,
      );
    }
    const entries = Object.entries(raw);
    if (entries.length === 0) {
      throw bad(path, `empty condition: give one of the operators ${scope.operators.join(', ')}`);
    }
    const items = entries.map(([op, arg]) => this.operator(op, arg, pathKey(path, op), depth, scope));
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private operator(op: string, arg: unknown, path: string, depth: number, scope: Scope): Node {
    if (op === 'and' || op === 'or') {
      if (!Array.isArray(arg) || arg.length === 0) {
        throw bad(path, `"${op}" takes a non-empty array of conditions, not ${jsonKind(arg)}`);
      }
      return { kind: op, items: arg.map((c, i) => this.condition(c, `${path}[${i}]`, depth + 1, scope)) };
    }
    if (op === 'not') return { kind: 'not', item: this.condition(arg, path, depth + 1, scope) };
    if (!scope.operators.includes(op)) {
      throw bad(path, `unknown operator ${show(op)}; allowed here: ${scope.operators.join(', ')}`);
    }
    if (!isObject(arg) || Object.keys(arg).length === 0) {
      throw bad(path, `"${op}" takes an object of field names to values, such as {"${op}": {"<field>": …}}`);
    }
    const items = Object.entries(arg).map(([name, value]): Node => {
      const at = pathKey(path, name);
      if (!scope.fields.has(name)) {
        throw bad(
          at,
          `unknown field ${show(name)} in ${scope.what}; fields: ${[...scope.fields.keys()].join(', ')}`,
        );
      }
      if (++this.leaves > SEARCH_LIMITS.leaves) {
        throw bad(at, `a query may have at most ${SEARCH_LIMITS.leaves} conditions`);
      }
      const allowed = scope.opsOf(name);
      if (!allowed.includes(op)) {
        const type = scope.fields.get(name)!.type;
        const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it cannot be searched';
        throw bad(at, `operator "${op}" does not apply to field ${show(name)} (${type}); ${takes}`);
      }
      return this.leaf(op, name, value, at, depth, scope);
    });
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private leaf(op: string, name: string, value: unknown, path: string, depth: number, scope: Scope): Node {
    const target = scope.target(name);
    const field = 'column' in target ? target.column : undefined;
    switch (op) {
      case 'in': {
        if (!Array.isArray(value) || value.length === 0 || value.length > SEARCH_LIMITS.inValues) {
          throw bad(path, `"in" on ${show(name)} takes an array of 1 to ${SEARCH_LIMITS.inValues} values`);
        }
        const values = value.map((v, i) => scalar(target.type, v, `${path}[${i}]`, op, name));
        return { kind: 'in', target, values };
      }
      case 'like': {
        const pattern = scalar('string', value, path, op, name) as string;
        if (pattern.length > SEARCH_LIMITS.likeLength) {
          throw bad(path, `"like" patterns are at most ${SEARCH_LIMITS.likeLength} characters`);
        }
        return { kind: 'like', target, pattern: pattern.replace(/[\\_]/g, '\\$&') };
      }
      case 'fuzzy':
      case 'keyword': {
        let words = searchWords(scalar('string', value, path, op, name) as string);
        if (words.length === 0)
          throw bad(path, `"${op}" on ${show(name)} needs at least one word (letters or digits)`);
        if (op === 'keyword') words = [...new Set(words)];
        if (words.length > SEARCH_LIMITS.words)
          throw bad(path, `"${op}" takes at most ${SEARCH_LIMITS.words} words`);
        const mode = op === 'fuzzy' ? 'all' : 'any';
        return { kind: 'text', field: field!, words, mode, ordered: op === 'fuzzy' };
      }
      case 'contains':
        return { kind: 'contains', field: field!, value: scalar(field!.items!, value, path, op, name) };
      case 'any': {
        const item = this.condition(value, path, depth + 1, elementScope(field!, field!.properties!));
        return { kind: 'any', field: field!, item };
      }
      default:
        return {
          kind: 'cmp',
          op: op as Comparison,
          target,
          value: scalar(target.type, value, path, op, name),
        };
    }
  }
}

/** A request value as the column of a field of `type` holds it, or an error naming the field. */
function scalar(type: ScalarFieldType, v: unknown, path: string, op: string, name: string): SqlValue {
  switch (type) {
    case 'string':
    case 'text':
      if (typeof v === 'string') {
        if (v.length <= SEARCH_LIMITS.stringLength) return v;
        throw bad(path, `values are at most ${SEARCH_LIMITS.stringLength} characters`);
      }
      break;
    case 'integer':
      if (Number.isSafeInteger(v)) return v as number;
      break;
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      break;
    case 'boolean':
      if (typeof v === 'boolean') return v ? 1 : 0;
      break;
    case 'timestamp': {
      const ms = timestampMs(v);
      if (ms !== undefined) return ms;
      break;
    }
  }
  const got = typeof v === 'string' || typeof v === 'number' ? JSON.stringify(v) : jsonKind(v);
  throw bad(path, `"${op}" on ${show(name)} (${type}) needs ${EXPECTED[type]}, got ${got}`);
}

function parseSort(layout: EntityLayout, raw: unknown): { field: IndexedField; desc: boolean }[] {
  const path = 'query.sort';
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > SEARCH_LIMITS.sortKeys) {
    throw bad(
      path,
      `sort takes an array of up to ${SEARCH_LIMITS.sortKeys} items such as [{"<field>": "desc"}]`,
    );
  }
  const sortable = [...layout.fields.values()].filter((f) => SORTABLE.includes(f.type)).map((f) => f.name);
  return raw.map((item, i) => {
    const entries = isObject(item) ? Object.entries(item) : [];
    const [name, dir] = entries[0] ?? [];
    if (entries.length !== 1 || name === undefined) {
      throw bad(`${path}[${i}]`, 'each sort item is an object with one field, such as {"<field>": "asc"}');
    }
    const at = pathKey(`${path}[${i}]`, name);
    const field = layout.fields.get(name);
    if (!field || !SORTABLE.includes(field.type)) {
      const why = field ? `a ${field.type} field cannot be sorted on` : 'unknown field';
      throw bad(at, `${why}: ${show(name)}; sortable fields: ${sortable.join(', ')}`);
    }
    if (dir !== 'asc' && dir !== 'desc')
      throw bad(at, `sort direction of ${show(name)} must be "asc" or "desc"`);
    return { field, desc: dir === 'desc' };
  });
}

// ---- rendering

const ELEMENT = 'e';
const CMP_SQL: Record<Comparison, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

interface Ctx {
  layout: EntityLayout;
  /** the connector's key in the index tables */
  connectorKey: number;
  d: SearchDialect;
}

function render(ctx: Ctx, node: Node): Sql {
  const { d } = ctx;
  const targetSql = (t: Target) =>
    'column' in t ? tableCol(t.column.column) : d.elementValue(ELEMENT, t.element.path, t.type);
  switch (node.kind) {
    case 'and':
    case 'or':
      return sql`(${join(
        node.items.map((n) => render(ctx, n)),
        node.kind === 'and' ? ' AND ' : ' OR ',
      )})`;
    case 'not':
      return sql`((${render(ctx, node.item)}) IS NOT TRUE)`;
    case 'cmp': {
      const x = targetSql(node.target);
      const op = raw(` ${CMP_SQL[node.op]} `);
      // `neq` also holds where the value is missing.
      return node.op === 'neq'
        ? sql`(${x} IS NULL OR ${x}${op}${bind(node.value)})`
        : sql`${x}${op}${bind(node.value)}`;
    }
    case 'in':
      return d.inList(targetSql(node.target), node.values);
    case 'like':
      return d.like(targetSql(node.target), node.pattern);
    case 'text': {
      const match = d.fullTextFilter({
        layout: ctx.layout,
        connectorKey: ctx.connectorKey,
        terms: [textTerm(node)],
      });
      return node.ordered
        ? sql`(${match} AND ${d.wordsInOrder(tableCol(node.field.column), node.words)})`
        : match;
    }
    case 'contains': {
      const item = d.elementValue(ELEMENT, null, node.field.items!);
      return d.someElement(tableCol(node.field.column), ELEMENT, sql`${item} = ${bind(node.value)}`);
    }
    case 'any':
      return d.someElement(tableCol(node.field.column), ELEMENT, render(ctx, node.item));
  }
}

const textTerm = (n: Extract<Node, { kind: 'text' }>): FullTextTerm => ({
  column: n.field.column,
  words: n.words,
  mode: n.mode,
});

const conjuncts = (node: Node): Node[] => (node.kind === 'and' ? node.items.flatMap(conjuncts) : [node]);

function toText(q: Sql, d: SearchDialect): CompiledSearch {
  let text = '';
  const params: SqlValue[] = [];
  for (const part of q.parts) {
    if (typeof part === 'string') text += part;
    else {
      params.push(part.value);
      text += d.placeholder(params.length);
    }
  }
  return { sql: text, params };
}

/** FROM and WHERE for a filter, driven by the full-text index when `canScan` and the top level ANDs full-text leaves. */
function fromWhere(
  layout: EntityLayout,
  connectorKey: number,
  filter: unknown,
  canScan: boolean,
  d: SearchDialect,
) {
  const isEmpty =
    filter === undefined || filter === null || (isObject(filter) && Object.keys(filter).length === 0);
  const root = isEmpty ? undefined : new Parser().condition(filter, 'query.filter', 1, tableScope(layout));
  const top = root ? conjuncts(root) : [];
  const ctx: Ctx = { layout, connectorKey, d };
  const where: Sql[] = [sql`${raw(T)}.${raw(BASE_COLUMNS.connectorKey)} = ${bind(connectorKey)}`];
  const texts = top.filter((n) => n.kind === 'text');
  if (canScan && d.fullTextScan && texts.length > 0) {
    const scan = d.fullTextScan({ layout, connectorKey, terms: texts.map(textTerm) });
    for (const n of top) {
      if (n.kind !== 'text') where.push(render(ctx, n));
      else if (n.ordered) where.push(d.wordsInOrder(tableCol(n.field.column), n.words));
    }
    return { from: scan.from, where: join([scan.where, ...where], ' AND '), rowid: scan.rowid };
  }
  for (const n of top) where.push(render(ctx, n));
  return {
    from: sql`${raw(quoteIdent(layout.table))} AS ${raw(T)}`,
    where: join(where, ' AND '),
    rowid: raw(`${T}.rid`),
  };
}

/**
 * The page of index rows (`rid`, `data`) of one connector matching the request, in the requested order with
 * `rid` as the final tie-breaker. Throws INVALID_QUERY (with the offending path) for anything it cannot compile.
 */
export function compileSearch(
  layout: EntityLayout,
  connectorKey: number,
  req: SearchRequest,
  dialect: SearchDialect = sqliteSearchDialect,
): CompiledSearch {
  const sort = parseSort(layout, req.sort);
  const q = fromWhere(layout, connectorKey, req.filter, sort.length === 0, dialect);
  // Each direction's NULL placement is the one an ascending B-tree gives, so the (connector_key, column) index serves it.
  const keys = sort.map(
    ({ field, desc }) => sql`${tableCol(field.column)} ${raw(desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST')}`,
  );
  keys.push(sql`${q.rowid} ${raw(sort.at(-1)?.desc ? 'DESC' : 'ASC')}`);
  const statement = sql`SELECT ${raw(T)}.rid, ${raw(T)}.data FROM ${q.from} WHERE ${q.where} ORDER BY ${join(keys, ', ')} LIMIT ${bind(req.limit)} OFFSET ${bind(req.offset)}`;
  return toText(statement, dialect);
}

/** How many index rows of the connector match `filter` (one row, column `count`). */
export function compileCount(
  layout: EntityLayout,
  connectorKey: number,
  req: Pick<SearchRequest, 'filter'>,
  dialect: SearchDialect = sqliteSearchDialect,
): CompiledSearch {
  const q = fromWhere(layout, connectorKey, req.filter, true, dialect);
  return toText(sql`SELECT count(*) AS count FROM ${q.from} WHERE ${q.where}`, dialect);
}
