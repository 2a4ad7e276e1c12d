/**
 * Readiness is per entity: an entity is searchable once it holds its first page (`ready_for_search`), whatever
 * its siblings are doing — one entity the provider refuses, or one retrying after an outage, never holds the
 * others' searches back.
 *
 * The connector-level status only summarises its entities' sync states:
 *
 *   Loading           nothing fetched yet (every entity Initializing)
 *   Building Preview  first pages being fetched; no entity searchable yet
 *   Preview           at least one entity searchable; others may still be fetching their first page
 *   Ready             every entity's backfill finished (stays Ready while refreshes run)
 *   Failed            every entity failed before anything was stored
 *
 * An entity that failed before storing anything is left out of the summary: it is reported with its reason
 * (`failedEntities`, inspect's `last_error`) and answers CONTEXT_STORE_NOT_READY, while the rest go on to Ready.
 */
import type { EntitySyncState } from './sync-state.ts';

export type ConnectorStoreStatus = 'Loading' | 'Building Preview' | 'Preview' | 'Ready' | 'Failed';

const failedEmpty = (s: EntitySyncState) => s.status === 'Failed' && !s.ready_for_search;

export function connectorStatus(states: EntitySyncState[]): ConnectorStoreStatus | null {
  if (states.length === 0) return null;
  const live = states.filter((s) => !failedEmpty(s));
  if (live.length === 0) return 'Failed';
  if (live.every((s) => s.ready_for_search && s.backfilled_at !== null)) return 'Ready';
  if (live.some((s) => s.ready_for_search)) return 'Preview';
  if (live.every((s) => s.status === 'Initializing')) return 'Loading';
  return 'Building Preview';
}

/** Whether `search` may run on this entity: it holds its first page (its siblings do not matter). */
export function searchable(entity: EntitySyncState | undefined): boolean {
  return entity?.ready_for_search === true;
}

/** The entities whose last pass failed, with the reason (those with records stored stay searchable). */
export function failedEntities(states: EntitySyncState[]): Array<{ entity: string; reason: string }> {
  return states
    .filter((s) => s.status === 'Failed')
    .map((s) => ({ entity: s.entity, reason: s.last_error ?? 'unknown' }));
}
