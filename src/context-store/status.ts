/**
 * The connector-level Context Store status, derived from its entities' sync states:
 *
 *   Loading           nothing fetched yet (every entity Initializing)
 *   Building Preview  first pages being fetched; nothing searchable yet
 *   Preview           the first page of every entity is stored: searchable, partial
 *   Ready             every entity's backfill finished (stays Ready while refreshes run)
 *   Failed            every entity failed before anything was stored
 *
 * An entity that failed before storing anything does not hold the others back: it is reported with its reason
 * and answers CONTEXT_STORE_NOT_READY, while the rest become searchable.
 */
import type { EntitySyncState } from './sync-state.ts';

export type ConnectorStoreStatus = 'Loading' | 'Building Preview' | 'Preview' | 'Ready' | 'Failed';

export function connectorStatus(states: EntitySyncState[]): ConnectorStoreStatus | null {
  if (states.length === 0) return null;
  const live = states.filter((s) => !(s.status === 'Failed' && !s.ready_for_search));
  if (live.length === 0) return 'Failed';
  if (live.every((s) => s.ready_for_search)) {
    return live.every((s) => s.backfilled_at !== null) ? 'Ready' : 'Preview';
  }
  if (live.every((s) => s.status === 'Initializing')) return 'Loading';
  return 'Building Preview';
}

/** Whether `search` may run: the connector is Preview or Ready and this entity holds its first page. */
export function searchable(
  status: ConnectorStoreStatus | null,
  entity: EntitySyncState | undefined,
): boolean {
  return (status === 'Preview' || status === 'Ready') && entity?.ready_for_search === true;
}
