/**
 * What the SQLite and PostgreSQL Context Stores write alike: the dialect-neutral SQL of the sync bookkeeping and
 * the index layouts (each statement takes the adapter's placeholders), the columns every index table starts with,
 * and the steps of a search before the adapter runs it. The adapters keep what differs: how they connect,
 * transactions and leases, column types beyond these, full-text indexing, and where searches run.
 */
import { BASE_COLUMNS, type ColumnKind, type EntityLayout, quoteIdent } from '../context-store/layout.ts';
import {
  type CompiledSearch,
  compileSearch,
  type SearchDialect,
  type SearchRequest,
} from '../context-store/query.ts';
import type { EntitySyncState } from './port.ts';
import { type SyncRow, toState } from './sync-rows.ts';

/** The adapter's text of the n-th (1-based) bound parameter: SQLite's `?`, PostgreSQL's `$n`. */
export type Placeholder = (n: number) => string;

/** A fresh sync's columns: nothing fetched, a backfill due at once (`now`: the placeholder of the time). */
export function resetSyncSet(now: string): string {
  return `status = 'Initializing', ready_for_search = 0, entity_count = 0, last_error = NULL,
  updated_at = NULL, backfilled_at = NULL, last_full_at = NULL, pass = 'backfill', run_after = ${now},
  lease_owner = NULL, lease_expires_at = NULL, checkpoint = NULL, generation = 0, high_water = NULL, attempts = 0`;
}

/** Resets the syncs of an entity whose index table was rebuilt; binds now, the entity, the definition id. */
export function resetLayoutSyncsSql(p: Placeholder): string {
  return `UPDATE cs_syncs SET ${resetSyncSet(p(1))}
    WHERE entity = ${p(2)} AND connector_id IN (SELECT id FROM connectors WHERE definition_id = ${p(3)})`;
}

/** Records a layout's table; binds table name, definition id, entity, layout hash, now. */
export function saveLayoutSql(p: Placeholder): string {
  return `INSERT INTO cs_layouts (table_name, definition_id, entity, layout_hash, created_at)
    VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
    ON CONFLICT (table_name) DO UPDATE SET layout_hash = excluded.layout_hash, created_at = excluded.created_at`;
}

export const LEASE_OWNERS_SQL = 'SELECT DISTINCT lease_owner FROM cs_syncs WHERE lease_owner IS NOT NULL';

/** The states of sync rows (in the rows' order), by connector. */
export function statesByConnector(rows: readonly SyncRow[]): Map<string, EntitySyncState[]> {
  const out = new Map<string, EntitySyncState[]>();
  for (const row of rows) {
    const list = out.get(row.connector_id) ?? [];
    list.push(toState(row));
    out.set(row.connector_id, list);
  }
  return out;
}

/** The organization and index key of a connector searched (binds the connector id); no key: never synced. */
export function searchOwnerSql(p: Placeholder): string {
  return `SELECT c.organization_id, k.connector_key FROM connectors c
    LEFT JOIN cs_connectors k ON k.connector_id = c.id WHERE c.id = ${p(1)}`;
}
export interface SearchOwner {
  organization_id: string;
  connector_key: number | null;
}

/**
 * The search to run for a connector of the organization, or undefined when there is nothing to search (another
 * organization's connector, or one never synced). It is compiled, and so checked, either way: a bad filter is
 * refused alike whether or not the connector has records; key 0 belongs to no connector.
 */
export function ownedSearch(
  layout: EntityLayout,
  organizationId: string,
  owner: SearchOwner | undefined,
  request: SearchRequest,
  dialect: SearchDialect,
): (CompiledSearch & { connectorKey: number }) | undefined {
  const compiled = compileSearch(layout, owner?.connector_key ?? 0, request, dialect);
  if (owner?.organization_id !== organizationId || owner.connector_key === null) return undefined;
  return { ...compiled, connectorKey: owner.connector_key };
}

/** The column types of an index table in one dialect. */
export interface IndexColumnTypes {
  /** The row id column, with its key (SQLite's `INTEGER PRIMARY KEY`, PostgreSQL's identity). */
  rid: string;
  integer: string;
  text: string;
  /** The record as stored (SQLite's JSON text, PostgreSQL's JSONB). */
  data: string;
  field: Record<ColumnKind, string>;
}

/**
 * The columns every index table starts with: row id, connector key, record key, record, generation, synced
 * time, then one per declared field. The adapter adds its own columns and `uniqueKey` last.
 */
export function baseIndexColumnsDdl(layout: EntityLayout, t: IndexColumnTypes): string[] {
  const b = BASE_COLUMNS;
  return [
    `rid ${t.rid}`,
    `${b.connectorKey} ${t.integer} NOT NULL REFERENCES cs_connectors(connector_key) ON DELETE CASCADE`,
    `${b.key} ${t.text} NOT NULL`,
    `${b.data} ${t.data} NOT NULL`,
    `${b.generation} ${t.integer} NOT NULL`,
    `${b.syncedAt} ${t.text} NOT NULL`,
    ...[...layout.fields.values()].map((f) => `${quoteIdent(f.column)} ${t.field[f.kind]}`),
  ];
}

/** A record is one row per connector: the constraint the upserts of both adapters conflict on. */
export const uniqueKey = `UNIQUE (${BASE_COLUMNS.connectorKey}, ${BASE_COLUMNS.key})`;

/** The columns of an index row after the connector key, in the order both adapters' encoders write them. */
export function indexRowFieldColumns(layout: EntityLayout): string[] {
  const b = BASE_COLUMNS;
  return [b.key, b.data, b.generation, b.syncedAt, ...[...layout.fields.values()].map((f) => f.column)];
}

/** How many records an entity's index table holds, over every connector (binds entity, definition id). */
export function entityRowsSql(p: Placeholder): string {
  return `SELECT COALESCE(SUM(entity_count), 0) AS n FROM cs_syncs
    WHERE entity = ${p(1)} AND connector_id IN (SELECT id FROM connectors WHERE definition_id = ${p(2)})`;
}

/**
 * Whether a table of `rows` records is due for fresh planner statistics, last gathered at `analyzedRows`: it
 * has doubled since (so a table of n rows is analysed about log2(n) times in its life), and is not tiny.
 */
export function grownSinceAnalyzed(rows: number, analyzedRows: number): boolean {
  return rows >= 1000 && rows >= analyzedRows * 2;
}

/** Starts a new backfill of every sync of a connector, its records kept meanwhile; binds now, org, connector. */
export function restartSyncsSql(p: Placeholder): string {
  return `UPDATE cs_syncs SET pass = 'backfill', run_after = ${p(1)}, checkpoint = NULL, attempts = 0, last_error = NULL,
    lease_owner = NULL, lease_expires_at = NULL,
    status = CASE WHEN ready_for_search = 1 THEN 'Updating' ELSE 'Initializing' END
    WHERE organization_id = ${p(2)} AND connector_id = ${p(3)}`;
}

/** Gives a connector its index key, once (binds the connector id). */
export function addConnectorKeySql(p: Placeholder): string {
  return `INSERT INTO cs_connectors (connector_id) VALUES (${p(1)}) ON CONFLICT (connector_id) DO NOTHING`;
}

/** Frees every lease of a worker (binds its owner id). */
export function releaseOwnerSql(p: Placeholder): string {
  return `UPDATE cs_syncs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ${p(1)}`;
}

/** Deletes a connector's records a full pass did not see (binds the connector key, the pass's generation). */
export function reconcileSql(table: string, p: Placeholder): string {
  const b = BASE_COLUMNS;
  return `DELETE FROM ${table} WHERE ${b.connectorKey} = ${p(1)} AND ${b.generation} < ${p(2)}`;
}
