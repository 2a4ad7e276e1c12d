/**
 * Where a pass goes after each page: pure functions of the checkpoint and what the page held, so every way a
 * pass moves on (next page, new query at the provider's cap, stop at the bound of a list read newest first,
 * next partition) is decided in one place and can be tested without a provider or a store.
 */
import type { EntityLayout } from '../../context-store/layout.ts';
import type { SyncCheckpoint, SyncJob } from '../../context-store/sync-state.ts';

/** What the entity's definition says about moving through its pages (constant for a pass). */
export interface CheckpointRules {
  /** The entity declares `incremental` (a bound param and a field to track). */
  incremental: boolean;
  /** The incremental field is one of the layout's fields: the highs are tracked from the records read. */
  tracksHigh: boolean;
  /** The list is read newest first: it stops at the bound instead of sending it. */
  descending: boolean;
  /** `incremental.lookback_seconds`: the bound is moved back by this much. */
  lookbackSeconds: number;
  /** `query_cap`: the provider answers at most this many records per query. */
  queryCap?: number | undefined;
}

/** What nextCheckpoint needs to know of a page just read. */
export interface PageFacts {
  /** Records in the page (0 for a page given to the store as bytes: the pass reads none of them). */
  count: number;
  /** The cursor of the next page of this query; null: the provider has no next page. */
  next: string | null;
  /** The largest and smallest incremental field value (ms) among the page's records; absent: none. */
  newest?: number | undefined;
  oldest?: number | undefined;
}

/**
 * How the pass moves on: to the next page of the same query, to a new query of the same partition starting
 * at the largest value read (`requery`), or to the next partition because the partition was read to its end
 * (`partition_done`) or a list read newest first went past the bound (`bound_reached`).
 */
export type Step = 'next_page' | 'requery' | 'partition_done' | 'bound_reached';

export function rulesOf(layout: EntityLayout): CheckpointRules {
  const inc = layout.spec.incremental;
  return {
    incremental: inc !== undefined,
    tracksHigh: inc !== undefined && layout.fields.has(inc.field),
    descending: inc?.order === 'descending',
    lookbackSeconds: inc?.lookback_seconds ?? 0,
    queryCap: layout.spec.query_cap,
  };
}

/** The checkpoint's key of a partition (its list params). */
export function partitionKey(partition: Record<string, string>): string {
  return JSON.stringify(partition);
}

/** The checkpoint after the page `page` read at `cp`, and why. */
export function nextCheckpoint(
  rules: CheckpointRules,
  cp: SyncCheckpoint,
  page: PageFacts,
): { checkpoint: SyncCheckpoint; step: Step } {
  const key = partitionKey(cp.partitions?.[cp.partition] ?? {});
  let highs = cp.highs;
  if (rules.tracksHigh) {
    const before = highs[key];
    let high = before === undefined ? -Infinity : Date.parse(before);
    if (page.newest !== undefined && page.newest > high) high = page.newest;
    // Also rewrites a stored high in the ISO form this module writes (e.g. one without milliseconds).
    if (Number.isFinite(high) && new Date(high).toISOString() !== before) {
      highs = { ...highs, [key]: new Date(high).toISOString() };
    }
  }
  const read = (cp.read ?? 0) + page.count;
  // A provider that answers at most `query_cap` records per query (HubSpot's search: 10,000): before the
  // next page would pass it (pages are taken to be as long as this one), a new query starts from the largest
  // value seen (the list is sorted by it, ascending), so the pass goes on instead of failing at the cap. A
  // query that has not moved the high past its bound can't start again from it: it reads on.
  const requery =
    page.next !== null &&
    rules.queryCap !== undefined &&
    rules.incremental &&
    read + page.count > rules.queryCap;
  const progressed = highs[key] !== undefined && highs[key] !== cp.bounds[key];
  if (requery && progressed) {
    const bounds = { ...cp.bounds, [key]: highs[key] as string };
    return { checkpoint: { ...cp, cursor: null, highs, bounds, read: 0 }, step: 'requery' };
  }
  // A list read newest first (no filter to send): once a record is older than the bound, the rest are too.
  const bound = rules.descending ? (cp.bounds[key] ?? cp.start) : null;
  const boundMs = bound ? Date.parse(bound) - rules.lookbackSeconds * 1000 : Number.NaN;
  const reachedBound =
    rules.tracksHigh && Number.isFinite(boundMs) && page.oldest !== undefined && page.oldest < boundMs;
  if (page.next !== null && !reachedBound) {
    return { checkpoint: { ...cp, cursor: page.next, highs, read }, step: 'next_page' };
  }
  return {
    checkpoint: { ...cp, partition: cp.partition + 1, cursor: null, highs, read: 0 },
    step: reachedBound ? 'bound_reached' : 'partition_done',
  };
}

/**
 * `cp` with the highs a store found in pages it was given as bytes (PageCommit.highs), where they are later
 * than the checkpoint's own.
 */
export function withHighs(cp: SyncCheckpoint, found: Record<string, string>): SyncCheckpoint {
  const later = Object.entries(found).filter(([k, v]) => !(Date.parse(v) <= Date.parse(cp.highs[k] ?? '')));
  return later.length > 0 ? { ...cp, highs: { ...cp.highs, ...Object.fromEntries(later) } } : cp;
}

/** The checkpoint a pass starts from when it has none to resume. `now`: the pass's start (ISO 8601). */
export function firstCheckpoint(
  job: SyncJob,
  layout: EntityLayout,
  config: Record<string, unknown>,
  now: string,
): SyncCheckpoint {
  const inc = layout.spec.incremental;
  const start = inc?.start_from ? config[inc.start_from] : undefined;
  const startBound = typeof start === 'string' && start ? start : null;
  const highs = parseHighs(job.high_water);
  return {
    partitions: null,
    partition: 0,
    cursor: null,
    generation: job.pass === 'incremental' ? Math.max(job.generation, 1) : job.generation + 1,
    highs,
    // Only an incremental pass starts from what was seen; backfill and full passes read the whole scope.
    bounds: inc && job.pass === 'incremental' ? highs : {},
    start: inc ? (startBound ?? inc.earliest ?? null) : null,
    until: inc?.until ? now : null,
  };
}

function parseHighs(value: string | null): Record<string, string> {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}
