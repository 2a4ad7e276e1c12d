/**
 * The SQLite side of the search compiler (src/context-store/query.ts): JSON arrays through json_each, LIKE
 * with ASCII-only case folding worked around, full text through FTS5, and the helper SQL functions every
 * connection registers (context-index.ts `registerSearchFunctions`).
 */
import { type EntityLayout, quoteIdent, timestampMs } from '../../context-store/layout.ts';
import {
  bareIdent,
  bind,
  type FullTextSearch,
  NON_ASCII,
  raw,
  type SearchDialect,
  type Sql,
  sql,
  TABLE_ALIAS,
  wordsInOrder,
} from '../../context-store/query.ts';
import { searchBudgetGuard } from './search-budget.ts';

const T = TABLE_ALIAS;
const bare = bareIdent;

/** The SQL functions `sqliteSearchDialect` calls; `registerSearchFunctions` installs them on each connection. */
export const SQLITE_SEARCH_FUNCTIONS = {
  ces_words_in_order: (text: unknown, pattern: unknown): number => (wordsInOrder(text, pattern) ? 1 : 0),
  ces_timestamp_ms: (value: unknown): number | null => timestampMs(value) ?? null,
  ces_lower: (value: unknown): unknown => (typeof value === 'string' ? value.toLowerCase() : value),
  // Registered deterministic like the others: its argument is a row id, so SQLite still calls it for each row
  // (only a call with constant arguments may be hoisted out of the loop).
  ces_search_budget: searchBudgetGuard,
} as const;

/**
 * The budget check of a row (search-budget.ts). Measured on full scans of 1M records: a JS call for every row
 * read added 110–170 ms per million rows (13–22%); letting `random()` pick one row in 64 brings that to about
 * 50 ms (~8%), and as no order or spacing of the rows can dodge it, the check still comes within ~64 rows of
 * the deadline.
 */
const budgetCheck = (rowid: Sql) => sql`((random() & 63) <> 0 OR ces_search_budget(${rowid}))`;

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
    // Under `or`/`not` this list of matches is built before the first index row is read: it gets its own check.
    return sql`${raw(T)}.rid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${bind(fts5Query(search))} AND ${budgetCheck(raw('rowid'))})`;
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
  wordsInOrder: (column, words) =>
    sql`ces_words_in_order(${raw(`${T}.${quoteIdent(column)}`)}, ${bind(words.join(' '))})`,
  rowGuard: budgetCheck,
};
