/**
 * The Context Store's sync states and passes: what the worker records per connector entity, and the store keeps
 * (domain types; `store/port.ts` re-exports them for its repositories).
 */
/** Entity-level Context Store states (the connector-level status is derived from them). */
export type EntitySyncStatus =
  | 'Initializing'
  | 'Building Preview'
  | 'Preview'
  | 'Ready'
  | 'Updating'
  | 'Failed';
/** backfill: the first complete read; incremental: only what changed since `high_water`; full: re-read all and drop what is gone. */
export type SyncPass = 'backfill' | 'incremental' | 'full';

/** Where an interrupted pass resumes: the partition being read and the cursor of its next page. */
export interface SyncCheckpoint {
  /** list params of each partition, resolved at the start of the pass (null: not resolved yet) */
  partitions: Array<Record<string, string>> | null;
  partition: number;
  /** the runtime's end_cursor of the next page; null: the partition's first page */
  cursor: string | null;
  /** the generation records written by this pass carry */
  generation: number;
  /**
   * Per partition (key: its params as JSON), the largest incremental field value seen so far (ISO 8601),
   * carried over from earlier passes. Kept per partition: one repository's newest edit says nothing about
   * how far another has been read.
   */
  highs: Record<string, string>;
  /**
   * Per partition, the lower bound this pass sends as the incremental param: fixed for the pass, except that a
   * `query_cap` moves it to the largest value read when a new query starts.
   */
  bounds: Record<string, string>;
  /** The replication_config bound (`start_from`, else `earliest`) for partitions without a bound of their own. */
  start: string | null;
  /** The pass's upper bound (`incremental.until`): when it started; absent in checkpoints written before it existed. */
  until?: string | null;
  /** Records read by the current query of the partition, for `query_cap` (absent: 0). */
  read?: number;
}

export interface EntitySyncState {
  connector_id: string;
  entity: string;
  status: EntitySyncStatus;
  ready_for_search: boolean;
  entity_count: number;
  last_error: string | null;
  /** last time the pass finished or the records changed */
  updated_at: string | null;
  backfilled_at: string | null;
  last_full_at: string | null;
  pass: SyncPass;
  run_after: string;
  generation: number;
  /** JSON of SyncCheckpoint.highs after the last finished pass */
  high_water: string | null;
}

/** What follows a finished pass; `reconcile` deletes the records the pass did not see. */
export interface NextPass {
  pass: SyncPass;
  run_after: string;
  high_water: string | null;
  generation: number;
  reconcile: boolean;
}

/** A claimed sync: the worker holds its lease until `lease_expires_at`. */
export interface SyncJob extends EntitySyncState {
  organization_id: string;
  lease_owner: string;
  checkpoint: SyncCheckpoint | null;
  attempts: number;
}
