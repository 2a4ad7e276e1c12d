/**
 * Rows of `cs_syncs` as both adapters store them (timestamps as ISO-8601 text, flags as 0/1, the checkpoint as
 * JSON text), turned into the Context Store's domain types; and the batch rule both adapters' page writes follow.
 */
import type { EntitySyncState, EntitySyncStatus, SyncCheckpoint, SyncJob, SyncPass } from './port.ts';

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
