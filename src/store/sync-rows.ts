/**
 * Rows of `cs_syncs` as both adapters store them (timestamps as ISO-8601 text, flags as 0/1, the checkpoint as
 * JSON text), turned into the Context Store's domain types; and the batch rule both adapters' page writes follow.
 */
import type {
  ContextStoreStats,
  EntitySyncState,
  EntitySyncStatus,
  SyncCheckpoint,
  SyncJob,
  SyncPass,
} from './port.ts';

/** A row of cs_syncs as stored. */
export interface SyncRow {
  connector_id: string;
  entity: string;
  organization_id: string;
  status: string;
  ready_for_search: number;
  entity_count: number;
  last_error: string | null;
  updated_at: string | null;
  backfilled_at: string | null;
  last_full_at: string | null;
  pass: string;
  run_after: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  checkpoint: string | null;
  generation: number;
  high_water: string | null;
  attempts: number;
}

export function toState(row: SyncRow): EntitySyncState {
  return {
    connector_id: row.connector_id,
    entity: row.entity,
    status: row.status as EntitySyncStatus,
    ready_for_search: row.ready_for_search === 1,
    entity_count: row.entity_count,
    last_error: row.last_error,
    updated_at: row.updated_at,
    backfilled_at: row.backfilled_at,
    last_full_at: row.last_full_at,
    pass: row.pass as SyncPass,
    run_after: row.run_after,
    generation: row.generation,
    high_water: row.high_water,
  };
}

export function toJob(row: SyncRow): SyncJob {
  return {
    ...toState(row),
    organization_id: row.organization_id,
    lease_owner: row.lease_owner ?? '',
    checkpoint: row.checkpoint ? (JSON.parse(row.checkpoint) as SyncCheckpoint) : null,
    attempts: row.attempts,
  };
}

/**
 * A provider can send one record twice in a batch (a page boundary that shifts during a pass). Only the last copy
 * of each key (`row[keyIndex]`) is written, as the provider's latest word: on SQLite writing the second copy over
 * a row the batch inserted corrupts the external-content FTS5 index, and PostgreSQL refuses an upsert that
 * touches one row twice.
 */
export function lastOfEachKey(rows: unknown[][], keyIndex = 1): unknown[][] {
  const last = new Map<unknown, number>();
  for (const [i, row] of rows.entries()) last.set(row[keyIndex], i);
  return last.size === rows.length ? rows : rows.filter((row, i) => last.get(row[keyIndex]) === i);
}

/**
 * `ContextStoreRepo.stats` in both dialects (`now` is the one parameter, `param` its placeholder): a row per
 * connector type, entity and status. Due syncs count only where the worker may claim them (as in `claim`).
 */
export function statsSql(param: string): string {
  return `SELECT c.connector_type AS connector_type, s.entity AS entity, s.status AS status,
      COUNT(*) AS syncs, COALESCE(SUM(s.entity_count), 0) AS records,
      MIN(CASE WHEN s.run_after <= ${param} AND w.status = 'active' AND (w.cache_enabled IS NULL OR w.cache_enabled = 1)
        THEN s.run_after END) AS oldest_due_at
    FROM cs_syncs s JOIN connectors c ON c.id = s.connector_id JOIN workspaces w ON w.id = c.workspace_id
    GROUP BY c.connector_type, s.entity, s.status`;
}

export interface StatsRow {
  connector_type: string;
  entity: string;
  status: string;
  /** numbers, or their text (PostgreSQL's bigint and numeric) */
  syncs: number | string;
  records: number | string;
  oldest_due_at: string | null;
}

/** The rows of `statsSql` folded into one entry per connector type and entity, in a stable order. */
export function foldStats(rows: StatsRow[]): ContextStoreStats[] {
  const out = new Map<string, ContextStoreStats>();
  for (const row of rows) {
    const key = JSON.stringify([row.connector_type, row.entity]);
    let entry = out.get(key);
    if (!entry) {
      entry = {
        connector_type: row.connector_type,
        entity: row.entity,
        syncs: {},
        records: 0,
        oldest_due_at: null,
      };
      out.set(key, entry);
    }
    const status = row.status as EntitySyncStatus;
    entry.syncs[status] = (entry.syncs[status] ?? 0) + Number(row.syncs);
    entry.records += Number(row.records);
    if (
      row.oldest_due_at !== null &&
      (entry.oldest_due_at === null || row.oldest_due_at < entry.oldest_due_at)
    )
      entry.oldest_due_at = row.oldest_due_at;
  }
  return [...out.values()].sort(
    (a, b) => a.connector_type.localeCompare(b.connector_type) || a.entity.localeCompare(b.entity),
  );
}
