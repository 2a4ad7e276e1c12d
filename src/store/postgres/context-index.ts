/**
 * PostgreSQL tables of the Context Store index: one table per (connector type, entity) holding every connector's
 * records (told apart by `connector_key`, which every query filters on), the record as JSONB, a typed column per
 * declared field with a B-tree index, and for each full-text field a tsvector column with a GIN index.
 *
 * The tsvector is written by ces, not by a text-search parser: its lexemes are the words the search compiler
 * takes from a query (`searchWords`, folded case- and accent-insensitively), and its positions the words'
 * places in the text. So `fuzzy` and `keyword` match the same words on PostgreSQL as on SQLite, whatever the
 * server's text-search configuration, and no extension is needed.
 */
import { createHash } from 'node:crypto';
import {
  BASE_COLUMNS,
  type ColumnKind,
  columnValue,
  type EntityLayout,
  quoteIdent,
  recordKey,
} from '../../context-store/layout.ts';
import { foldWord, WORD } from '../../context-store/query.ts';
import {
  baseIndexColumnsDdl,
  type IndexColumnTypes,
  indexRowFieldColumns,
  uniqueKey,
} from '../context-store-shared.ts';

const COLUMN_TYPES: IndexColumnTypes = {
  rid: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  integer: 'integer',
  text: 'text',
  data: 'jsonb',
  field: { text: 'text', number: 'double precision', json: 'jsonb' },
};
const ARRAY_TYPE: Record<ColumnKind, string> = { text: 'text[]', number: 'float8[]', json: 'jsonb[]' };

/** PostgreSQL keeps 63 bytes of a name; a longer one gets a stable hash suffix instead of a silent cut. */
export function pgName(name: string): string {
  if (name.length <= 63) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 12);
  return `${name.slice(0, 50)}_${hash}`;
}

/** The tsvector column of a full-text field. */
export const tsvColumn = (column: string) => `${column.slice(0, 58)}__tsv`;

const fullTextFields = (layout: EntityLayout) => [...layout.fields.values()].filter((f) => f.fullText);

/** Statements creating (if missing) the index table and its indexes. */
export function indexTableDdl(layout: EntityLayout): string[] {
  const table = quoteIdent(pgName(layout.table));
  const b = BASE_COLUMNS;
  const fields = [...layout.fields.values()];
  const columns = [
    ...baseIndexColumnsDdl(layout, COLUMN_TYPES),
    ...fullTextFields(layout).map((f) => `${quoteIdent(tsvColumn(f.column))} tsvector`),
    uniqueKey,
  ];
  const index = (suffix: string) => quoteIdent(pgName(`${layout.table}__${suffix}`));
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (\n  ${columns.join(',\n  ')}\n)`,
    `CREATE INDEX IF NOT EXISTS ${index(b.connectorKey)} ON ${table} (${b.connectorKey}, rid)`,
    `CREATE INDEX IF NOT EXISTS ${index(b.generation)} ON ${table} (${b.connectorKey}, ${b.generation})`,
    // NULLS FIRST ascending: read forwards it serves ASC NULLS FIRST, backwards DESC NULLS LAST, the two orders
    // the search compiler asks for (SQLite's own NULL placement). `rid` last, as SQLite's rowid is in every index
    // of its: equal values come in `rid` order, so `eq` + the default order (and any sort's tie-break) reads the
    // first page off the index instead of sorting every match (measured by bench/context-store.ts).
    ...fields
      .filter((f) => f.indexed)
      .map(
        (f) =>
          `CREATE INDEX IF NOT EXISTS ${index(f.column)} ON ${table} (${b.connectorKey}, ${quoteIdent(f.column)} ASC NULLS FIRST, rid)`,
      ),
    ...fullTextFields(layout).map(
      (f) =>
        `CREATE INDEX IF NOT EXISTS ${index(tsvColumn(f.column))} ON ${table} USING gin (${quoteIdent(tsvColumn(f.column))})`,
    ),
  ];
}

export function dropIndexTableDdl(layout: EntityLayout): string[] {
  return [`DROP TABLE IF EXISTS ${quoteIdent(pgName(layout.table))}`];
}

// PostgreSQL's limits of a tsvector: a lexeme under 2 KiB, 256 positions per lexeme (the first are kept),
// positions up to 16383 (later words share the last), and 1 MiB in all (words past that are not indexed).
const MAX_LEXEME_BYTES = 2046;
const MAX_POSITIONS = 256;
const MAX_POSITION = 16383;
const MAX_VECTOR_BYTES = 1_000_000;

const lexemeLiteral = (word: string) => `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The tsvector text of a full-text column's value: each folded word with its places in the text. */
export function tsvectorText(text: string | number | null): string | null {
  if (typeof text !== 'string') return null;
  const places = new Map<string, number[]>();
  let position = 0;
  let bytes = 0;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const word = foldWord(m[0]);
    if (word === '') continue;
    position = Math.min(position + 1, MAX_POSITION);
    const size = Buffer.byteLength(word);
    if (size > MAX_LEXEME_BYTES) continue;
    let list = places.get(word);
    if (!list) {
      bytes += size + 8;
      if (bytes > MAX_VECTOR_BYTES) break;
      list = [];
      places.set(word, list);
    }
    if (list.length < MAX_POSITIONS && list.at(-1) !== position) list.push(position);
  }
  let out = '';
  for (const [word, list] of places) out += `${out ? ' ' : ''}${lexemeLiteral(word)}:${list.join(',')}`;
  return out;
}

/** A tsquery text matching the words (already folded): all of them, or any. */
export function tsqueryText(words: readonly string[], mode: 'all' | 'any'): string {
  return words.map(lexemeLiteral).join(mode === 'all' ? ' & ' : ' | ');
}

/**
 * An encoded record: key, JSON text, generation, synced_at, then each field's value, then each full-text
 * field's tsvector text (the order of `upsertSql`'s columns).
 */
export function indexRow(
  layout: EntityLayout,
  record: unknown,
  generation: number,
  syncedAt: string,
  /** The record's JSON as the provider wrote it, if known. */
  text?: string,
): unknown[] | undefined {
  const key = recordKey(layout, record);
  if (key === undefined) return undefined;
  let json = text ?? JSON.stringify(record);
  // PostgreSQL text and JSONB can't hold NUL: a provider's record with one keeps U+FFFD in its place (the
  // check is on the JSON text, so records without one cost nothing more).
  if (json.includes('\\u0000'))
    json = JSON.stringify(record, (_k, v) => (typeof v === 'string' ? noNul(v) : v));
  const row: unknown[] = [noNul(key), json, generation, syncedAt];
  for (const f of layout.fields.values()) {
    const value = columnValue(f, record);
    row.push(typeof value === 'string' ? noNul(value) : value);
  }
  for (const f of fullTextFields(layout)) row.push(tsvectorText(columnValue(f, record)));
  return row;
}

const noNul = (text: string) => (text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text);

/**
 * One statement writing a batch of encoded rows (`$1` the connector key, then one array per column of
 * `indexRow`): each record inserted, or its row replaced when the key exists.
 */
export function upsertSql(layout: EntityLayout): string {
  const b = BASE_COLUMNS;
  const fields = [...layout.fields.values()];
  const text = fullTextFields(layout);
  const cols = [...indexRowFieldColumns(layout), ...text.map((f) => tsvColumn(f.column))];
  const types = [
    'text[]',
    'jsonb[]',
    'integer[]',
    'text[]',
    ...fields.map((f) => ARRAY_TYPE[f.kind]),
    ...text.map(() => 'tsvector[]'),
  ];
  const params = types.map((t, i) => `$${i + 2}::${t}`);
  const replace = cols
    .slice(1)
    .map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`)
    .join(', ');
  return `INSERT INTO ${quoteIdent(pgName(layout.table))} (${[b.connectorKey, ...cols].map(quoteIdent).join(', ')})
    SELECT $1, u.* FROM unnest(${params.join(', ')}) AS u
    ON CONFLICT (${b.connectorKey}, ${b.key}) DO UPDATE SET ${replace}`;
}
