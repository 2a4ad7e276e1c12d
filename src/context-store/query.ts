/**
 * The Context Store search compiler: turns a client's `query` (`filter`, `sort`) plus a page into one SQL
 * statement over an entity's index table. Pure: it touches no database. query-parse.ts checks the request and
 * builds the condition tree; this module renders it.
 *
 * Security rests on two rules kept in these two modules and nowhere else: every value of the request is a
 * bound parameter, and every identifier comes from the layout (a request's field name is only ever a key to
 * look a field up with; an unknown name is an error). The statement always restricts to one connector, which is what
 * isolates tenants sharing an index table.
 *
 * Logic is two-valued: a leaf about a missing value (SQL NULL) is false, and `not` of it is true. Without a
 * `not` SQL's NULL already acts as false in WHERE (AND/OR are monotone), so only `not` needs `IS NOT TRUE`.
 *
 * What differs between databases (placeholders, JSON arrays, full text, helper functions) is behind
 * SearchDialect, which each store adapter brings (SQLite: src/store/sqlite/search-dialect.ts).
 */
import { BASE_COLUMNS, type EntityLayout, quoteIdent, type ScalarFieldType } from './layout.ts';
import {
  type Comparison,
  type Node,
  parseFilter,
  parseSort,
  type SqlValue,
  type Target,
} from './query-parse.ts';

// What callers of the compiler use from its first half.
export {
  foldWord,
  NON_ASCII,
  SEARCH_LIMITS,
  type SqlValue,
  searchWords,
  WORD,
  wordsInOrder,
} from './query-parse.ts';

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

// ---- SQL fragments: text and bound values kept apart until rendering, so no value can become SQL text.

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
export const TABLE_ALIAS = 't';
const T = TABLE_ALIAS;
const tableCol = (name: string) => raw(`${T}.${quoteIdent(name)}`);
/** A checked identifier without quotes, for places that take bare names (JSON paths, FTS5 column filters). */
export const bareIdent = (name: string) => quoteIdent(name).slice(1, -1);

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
  /** Optional: the index table's name in this database, when it is not `layout.table` (a length limit). */
  tableName?(layout: EntityLayout): string;
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
  /** True when the words (lower-cased, as `searchWords` gives them) occur in order in the full-text field stored in `column`. */
  wordsInOrder(column: string, words: readonly string[]): Sql;
  /**
   * Optional: a condition that is always true, evaluated as the statement reads each index row (`rowid`); an
   * adapter without a statement timeout stops a search past its time budget from there. The compiler puts it
   * before every other per-row condition, so no row is read without it.
   */
  rowGuard?(rowid: Sql): Sql;
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
      return node.ordered ? sql`(${match} AND ${d.wordsInOrder(node.field.column, node.words)})` : match;
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
  const root = parseFilter(layout, filter);
  const top = root ? conjuncts(root) : [];
  const ctx: Ctx = { layout, connectorKey, d };
  const where: Sql[] = [sql`${raw(T)}.${raw(BASE_COLUMNS.connectorKey)} = ${bind(connectorKey)}`];
  const texts = top.filter((n) => n.kind === 'text');
  if (canScan && d.fullTextScan && texts.length > 0) {
    const scan = d.fullTextScan({ layout, connectorKey, terms: texts.map(textTerm) });
    if (d.rowGuard) where.push(d.rowGuard(scan.rowid));
    for (const n of top) {
      if (n.kind !== 'text') where.push(render(ctx, n));
      else if (n.ordered) where.push(d.wordsInOrder(n.field.column, n.words));
    }
    return { from: scan.from, where: join([scan.where, ...where], ' AND '), rowid: scan.rowid };
  }
  if (d.rowGuard) where.push(d.rowGuard(raw(`${T}.rid`)));
  for (const n of top) where.push(render(ctx, n));
  return {
    from: sql`${raw(quoteIdent(d.tableName?.(layout) ?? layout.table))} AS ${raw(T)}`,
    where: join(where, ' AND '),
    rowid: raw(`${T}.rid`),
  };
}

/**
 * Checks a request's `filter` and `sort` against the layout and SEARCH_LIMITS without compiling it: throws
 * INVALID_QUERY as compileSearch would. Past it the request is known to be small and shallow, so callers may
 * walk it (serialise, hash) safely.
 */
export function checkSearch(layout: EntityLayout, req: Pick<SearchRequest, 'filter' | 'sort'>): void {
  parseSort(layout, req.sort);
  parseFilter(layout, req.filter);
}

/**
 * The page of index rows (`rid`, `data`) of one connector matching the request, in the requested order with
 * `rid` as the final tie-breaker. Throws INVALID_QUERY (with the offending path) for anything it cannot compile.
 */
export function compileSearch(
  layout: EntityLayout,
  connectorKey: number,
  req: SearchRequest,
  dialect: SearchDialect,
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
  dialect: SearchDialect,
): CompiledSearch {
  const q = fromWhere(layout, connectorKey, req.filter, true, dialect);
  return toText(sql`SELECT count(*) AS count FROM ${q.from} WHERE ${q.where}`, dialect);
}
