/**
 * SQLite tables of the Context Store index: one table per (connector type, entity) holding every connector's
 * records (rows of different connectors are told apart by `connector_id`, which every query filters on), plus
 * an external-content FTS5 table over the full-text columns kept in step by triggers.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { BASE_COLUMNS, type EntityLayout, quoteIdent } from '../../context-store/layout.ts';
import {
  baseIndexColumnsDdl,
  type IndexColumnTypes,
  indexRowFieldColumns,
  uniqueKey,
} from '../context-store-shared.ts';
import {
  SQLITE_FTS_CONNECTOR_COLUMN,
  SQLITE_SEARCH_FUNCTIONS,
  sqliteConnectorToken,
} from './search-dialect.ts';

const COLUMN_TYPES: IndexColumnTypes = {
  rid: 'INTEGER PRIMARY KEY',
  integer: 'INTEGER',
  text: 'TEXT',
  data: 'TEXT',
  field: { text: 'TEXT', number: 'REAL', json: 'TEXT' },
};

function triggerNames(layout: EntityLayout) {
  return ['ai', 'ad', 'au'].map((suffix) => quoteIdent(`${layout.table}__fts_${suffix}`));
}

/** Statements creating (if missing) the index table, its indexes, and its full-text table and triggers. */
export function indexTableDdl(layout: EntityLayout): string[] {
  const table = quoteIdent(layout.table);
  const b = BASE_COLUMNS;
  const fields = [...layout.fields.values()];
  const columns = [
    ...baseIndexColumnsDdl(layout, COLUMN_TYPES),
    // Not stored: read only by FTS5 `rebuild` / `integrity-check` (the triggers compute the same expression).
    ...(layout.ftsTable
      ? [
          `${quoteIdent(SQLITE_FTS_CONNECTOR_COLUMN)} TEXT GENERATED ALWAYS AS (${sqliteConnectorToken(b.connectorKey)}) VIRTUAL`,
        ]
      : []),
    uniqueKey,
  ];
  const out = [
    `CREATE TABLE IF NOT EXISTS ${table} (\n  ${columns.join(',\n  ')}\n)`,
    // Rows of one connector in `rid` order: the order of a search without a sort, read without sorting.
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${layout.table}__${b.connectorKey}`)} ON ${table}(${b.connectorKey})`,
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${layout.table}__${b.generation}`)} ON ${table}(${b.connectorKey}, ${b.generation})`,
    ...fields
      .filter((f) => f.indexed)
      .map(
        (f) =>
          `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${layout.table}__${f.column}`)} ON ${table}(${b.connectorKey}, ${quoteIdent(f.column)})`,
      ),
  ];
  const textColumns = fields.filter((f) => f.fullText).map((f) => quoteIdent(f.column));
  if (!layout.ftsTable || textColumns.length === 0) return out;
  const fts = quoteIdent(layout.ftsTable);
  const cols = [quoteIdent(SQLITE_FTS_CONNECTOR_COLUMN), ...textColumns].join(', ');
  const values = (row: 'old' | 'new') =>
    [sqliteConnectorToken(`${row}.${b.connectorKey}`), ...textColumns.map((c) => `${row}.${c}`)].join(', ');
  const oldCols = values('old');
  const newCols = values('new');
  const [ai, ad, au] = triggerNames(layout);
  const remove = `INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rid, ${oldCols});`;
  const add = `INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rid, ${newCols});`;
  // No AFTER INSERT trigger: new rows reach the full-text table in one statement per written batch
  // (ftsFillSql), which costs a fraction of a per-row trigger. Updates and deletes keep their triggers.
  out.push(`DROP TRIGGER IF EXISTS ${ai}`);
  out.push(
    // The table name is a checked identifier; FTS5 takes its options as string literals.
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(${cols}, content='${layout.table}', content_rowid='rid', tokenize='unicode61 remove_diacritics 2')`,
    `CREATE TRIGGER IF NOT EXISTS ${ad} AFTER DELETE ON ${table} BEGIN ${remove} END`,
    // Only when indexed text changes: a sync pass that sees a record again (the upsert sets every column, and
    // bumps sync_generation) leaves its full-text row alone unless its text really differs.
    `CREATE TRIGGER IF NOT EXISTS ${au} AFTER UPDATE OF rid, ${b.connectorKey}, ${textColumns.join(', ')} ON ${table} WHEN ${['rid', b.connectorKey, ...textColumns].map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN ${remove} ${add} END`,
  );
  return out;
}

/**
 * Indexes, for full-text search, the rows inserted after row id `?`: run once after a batch of inserts, in the
 * same transaction, with the largest row id the table had before the batch. Undefined: nothing full-text.
 */
/** The columns of an index row, in the order every insert of one binds them. */
export function indexRowColumns(layout: EntityLayout): string[] {
  return [BASE_COLUMNS.connectorKey, ...indexRowFieldColumns(layout)];
}

/** A plain insert of one index row (`indexRowColumns` order); the writer adds its own conflict handling. */
export function indexRowInsertSql(layout: EntityLayout): string {
  const cols = indexRowColumns(layout);
  return `INSERT INTO ${quoteIdent(layout.table)} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
}

export function ftsFillSql(layout: EntityLayout): string | undefined {
  const fields = [...layout.fields.values()].filter((f) => f.fullText).map((f) => quoteIdent(f.column));
  if (!layout.ftsTable || fields.length === 0) return undefined;
  const cols = [quoteIdent(SQLITE_FTS_CONNECTOR_COLUMN), ...fields].join(', ');
  const values = [sqliteConnectorToken(BASE_COLUMNS.connectorKey), ...fields].join(', ');
  return `INSERT INTO ${quoteIdent(layout.ftsTable)}(rowid, ${cols}) SELECT rid, ${values} FROM ${quoteIdent(layout.table)} WHERE rid > ?`;
}

/** Statements dropping (if present) the triggers, the full-text table and the index table. */
export function dropIndexTableDdl(layout: EntityLayout): string[] {
  const out = triggerNames(layout).map((t) => `DROP TRIGGER IF EXISTS ${t}`);
  if (layout.ftsTable) out.push(`DROP TABLE IF EXISTS ${quoteIdent(layout.ftsTable)}`);
  out.push(`DROP TABLE IF EXISTS ${quoteIdent(layout.table)}`);
  return out;
}

/** The names of an index table's B-tree indexes (one `?`: the table). */
export const INDEX_NAMES_SQL =
  "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name";

/**
 * Refreshes the planner statistics of an index table; run it after a backfill and when a table's size has
 * changed a lot. Without statistics SQLite takes `connector_id = ?` to select a handful of rows and prefers
 * scanning one connector's rows over a field's index (seen: `in`, a range with a sort on another field and
 * `or` taking hundreds of milliseconds at 200k records instead of under one). A sampled ANALYZE
 * (`analysis_limit`) is not enough: it gathers no sqlite_stat4, which range estimates need, and its row counts
 * per connector were off by a factor of 1,000 at 1M rows.
 *
 * One statement per index (`indexes`: INDEX_NAMES_SQL's answer), each meant for a transaction of its own:
 * ANALYZE holds the write lock throughout, and the whole table took 0.94 s at 1M GitHub issues (10 indexes)
 * where its slowest index took 0.1 s. Together they gather what `ANALYZE <table>` does.
 */
export function analyzeIndexTableSql(layout: EntityLayout, indexes: readonly string[]): string[] {
  if (indexes.length === 0) return [`ANALYZE ${quoteIdent(layout.table)}`];
  return indexes.map((name) => `ANALYZE ${quoteIdent(name)}`);
}

/** Installs the SQL functions search statements call; needed once on every connection that runs them. */
export function registerSearchFunctions(db: BetterSqlite3.Database): void {
  for (const [name, fn] of Object.entries(SQLITE_SEARCH_FUNCTIONS)) {
    db.function(name, { deterministic: true }, fn as (...args: unknown[]) => unknown);
  }
}
