/**
 * The Context Store's metrics: what the worker wrote and how its passes ended, searches, and gauges read from
 * the store at scrape time (syncs by status, records indexed, how overdue the most overdue sync is), every one
 * by connector type and entity, all connectors together.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ContextStoreObserver } from '../core/context-store-observer.ts';
import type { ContextStoreStats } from '../store/port.ts';
import { LabelCache } from './label-cache.ts';

/** A search answers in milliseconds on an index; its budget (CES_SEARCH_TIMEOUT_MS) is 2 s by default. */
const SEARCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The store's aggregate visits every sync row (stats() in the port), so it is read again only when a scrape
 * finds it older than MAX_AGE_MS, or older than MIN_AGE_MS while the worker has written since: a scrape
 * every few seconds costs one read a second at most. The lag itself is worked out at each scrape.
 */
const MAX_AGE_MS = 30_000;
const MIN_AGE_MS = 1000;

export interface StoreGauges {
  /** The store's aggregate (ContextStoreRepo.stats). */
  stats: (now: string) => Promise<ContextStoreStats[]>;
  now: () => Date;
  /** A failed read: the gauges keep their last values. */
  onError: (err: unknown) => void;
}

export class ContextStoreMetrics {
  readonly observer: ContextStoreObserver;
  private last: { at: number; stats: ContextStoreStats[] } | undefined;
  private reading: Promise<void> | undefined;
  private dirty = false;

  constructor(
    registry: Registry,
    private readonly store: StoreGauges | undefined,
  ) {
    const registers = [registry];
    const entity = ['connector_type', 'entity'] as const;
    const written = new Counter({
      name: 'ces_context_store_records_written_total',
      help: 'Records the Context Store worker wrote to the index (inserted, changed or seen again).',
      labelNames: entity,
      registers,
    });
    const passes = new Counter({
      name: 'ces_context_store_sync_passes_total',
      help: 'Claimed syncs by pass (backfill, incremental, full) and outcome (success, stopped, lease_lost, rate_limited, retry, failed).',
      labelNames: ['connector_type', 'entity', 'pass', 'outcome'] as const,
      registers,
    });
    const lastSuccess = new Gauge({
      name: 'ces_context_store_sync_last_success_timestamp_seconds',
      help: 'When this process last finished a pass of the entity, of any connector (Unix time).',
      labelNames: entity,
      registers,
    });
    const searches = new Histogram({
      name: 'ces_context_store_search_duration_seconds',
      help: 'Context Store searches by their costliest kind of condition (like, fuzzy, keyword, any, contains, range, in, neq, eq, none) and outcome.',
      labelNames: ['operator', 'outcome'] as const,
      buckets: SEARCH_BUCKETS,
      registers,
    });

    const writtenBy = new LabelCache((type, name) => written.labels(type, name));
    const passesBy = new LabelCache((type, name, pass, outcome) => passes.labels(type, name, pass, outcome));
    const searchesBy = new LabelCache((operator, outcome) => searches.labels(operator, outcome));
    this.observer = {
      recordsWritten: (type, name, count) => {
        writtenBy.get(type, name).inc(count);
        this.dirty = true;
      },
      syncPass: (type, name, pass, outcome) => {
        passesBy.get(type, name, pass, outcome).inc();
        if (outcome === 'success') lastSuccess.labels(type, name).set(Date.now() / 1000);
        this.dirty = true;
      },
      search: (operator, outcome, seconds) => searchesBy.get(operator, outcome).observe(seconds),
    };

    if (!store) return;
    // One read serves the three gauges of a scrape; each sets all its label sets anew (a type whose syncs are
    // all gone disappears).
    const syncs = new Gauge({
      name: 'ces_context_store_syncs',
      help: 'Entity syncs (one per connector and entity) by status: Initializing, Building Preview, Preview, Ready, Updating, Failed.',
      labelNames: ['connector_type', 'entity', 'status'] as const,
      registers,
      collect: async () => {
        const stats = await this.stats();
        syncs.reset();
        for (const s of stats)
          for (const [status, n] of Object.entries(s.syncs))
            syncs.labels(s.connector_type, s.entity, status).set(n);
      },
    });
    const records = new Gauge({
      name: 'ces_context_store_records',
      help: 'Records in the index, all connectors together (as of each sync’s last count).',
      labelNames: entity,
      registers,
      collect: async () => {
        const stats = await this.stats();
        records.reset();
        for (const s of stats) records.labels(s.connector_type, s.entity).set(s.records);
      },
    });
    const lag = new Gauge({
      name: 'ces_context_store_sync_lag_seconds',
      help: 'Seconds the most overdue sync has been due without its pass finishing (waiting, running or retrying; paused workspaces left out). 0: every sync is on schedule.',
      labelNames: entity,
      registers,
      collect: async () => {
        const stats = await this.stats();
        const now = store.now().getTime();
        lag.reset();
        for (const s of stats) {
          const due = s.oldest_due_at === null ? now : Date.parse(s.oldest_due_at);
          lag.labels(s.connector_type, s.entity).set(Math.max(0, (now - due) / 1000));
        }
      },
    });
  }

  private async stats(): Promise<ContextStoreStats[]> {
    const store = this.store;
    if (!store) return [];
    const age = this.last ? Date.now() - this.last.at : Number.POSITIVE_INFINITY;
    // A read under way serves every gauge of the scrape that started it (they are collected at once).
    if (!this.reading && (age >= MAX_AGE_MS || (this.dirty && age >= MIN_AGE_MS))) {
      this.reading = (async () => {
        this.dirty = false;
        try {
          this.last = { at: Date.now(), stats: await store.stats(store.now().toISOString()) };
        } catch (err) {
          store.onError(err);
        } finally {
          this.reading = undefined;
        }
      })();
    }
    await this.reading;
    return this.last?.stats ?? [];
  }
}
