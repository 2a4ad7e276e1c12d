/**
 * The PostgreSQL side of the search compiler (src/context-store/query.ts): `$n` placeholders, lists bound as
 * one array, JSON arrays through jsonb_array_elements, case-insensitive LIKE over lower(), and full text over
 * the tsvector columns ces writes itself (context-index.ts). The time budget is the statement timeout, so
 * there is no per-row guard.
 */

import { quoteIdent } from '../../context-store/layout.ts';
import { bind, foldWord, raw, type SearchDialect, type SqlValue, sql } from '../../context-store/query.ts';
import { pgName, tsqueryText, tsvColumn } from './context-index.ts';

/** A PostgreSQL array literal of the values (strings quoted, so no value can end the literal early). */
function arrayLiteral(values: readonly SqlValue[]): string {
  const items = values.map((v) =>
    v === null ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}

const T = 't';
const column = (name: string) => raw(`${T}.${quoteIdent(name)}`);

export const postgresSearchDialect: SearchDialect = {
  tableName: (layout) => pgName(layout.table),
  placeholder: (n) => `$${n}`,
  inList(expr, values) {
    // The values of one `in` are all numbers or all strings (query-parse.ts checks them against the field).
    const type = values.every((v) => typeof v === 'number' || v === null) ? 'float8[]' : 'text[]';
    return sql`${expr} = ANY(${bind(arrayLiteral(values))}::${raw(type)})`;
  },
  like: (expr, pattern) => sql`lower(${expr}) LIKE ${bind(pattern.toLowerCase())} ESCAPE '\\'`,
  someElement: (col, alias, predicate) =>
    sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${col}) AS ${raw(quoteIdent(alias))}(value) WHERE ${predicate})`,
  elementValue(alias, path, type) {
    const a = `${quoteIdent(alias)}.value`;
    // A member of an object element; an element of another kind has none (#> would index into an array).
    const v = path
      ? `(CASE WHEN jsonb_typeof(${a}) = 'object' THEN ${a} #> '{${path.map((p) => quoteIdent(p).slice(1, -1)).join(',')}}' END)`
      : a;
    switch (type) {
      case 'string':
      case 'text':
        return raw(`(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${v} #>> '{}' END)`);
      case 'timestamp':
        return raw(`ces_timestamp_ms(CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${v} #>> '{}' END)`);
      case 'integer':
      case 'number':
        return raw(`(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::float8 END)`);
      case 'boolean':
        return raw(
          `(CASE WHEN jsonb_typeof(${v}) = 'boolean' THEN CASE WHEN (${v})::boolean THEN 1.0 ELSE 0.0 END END)`,
        );
    }
  },
  fullTextFilter(search) {
    const tests = search.terms.map(
      (t) =>
        sql`${column(tsvColumn(t.column))} @@ ${bind(tsqueryText(t.words.map(foldWord), t.mode))}::tsquery`,
    );
    return tests.length === 1 ? tests[0]! : sql`(${tests.reduce((a, b) => sql`${a} AND ${b}`)})`;
  },
  wordsInOrder: (col, words) =>
    sql`ces_words_in_order(${column(tsvColumn(col))}, ${bind(arrayLiteral(words.map(foldWord)))}::text[])`,
};
